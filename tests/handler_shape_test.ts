/**
 * The handler shape is described once (`src/schema/handler.ts`): the hooks-file JSON Schema, the
 * normalizer and the hash subject must agree with its tables. Each test names the drift it catches.
 */
import { assertEquals } from "./helpers/assert.ts";
import { type FieldSpec, HANDLER_FIELDS, HANDLER_TYPES, type HandlerType, MCP_DERIVED } from "../src/schema/handler.ts";
import { normalizeHandler } from "../src/config/handlers.ts";
import type { Warning } from "../src/config/warnings.ts";
import { contentHashSync } from "../src/trust/hash.ts";
import { CONFIG_SCHEMA } from "../src/generated/schemas.ts";
import { REPO } from "./helpers/cli.ts";
import type { Dialect } from "../src/events/types.ts";

type Table = Record<string, FieldSpec>;
type Case = { type: HandlerType; dialect: Dialect; fields: Table };

const CASES: Case[] = HANDLER_TYPES.flatMap((type) => [
  { type, dialect: "mind" as const, fields: HANDLER_FIELDS[type].fields },
  { type, dialect: "claude" as const, fields: { ...HANDLER_FIELDS[type].fields, ...HANDLER_FIELDS[type].claude } },
]);

/** Two valid values of a field of this kind, the first the one a maximal handler carries. */
function values(name: string, f: FieldSpec, type: string): [unknown, unknown] {
  if (name === "if") return ["Bash(ls *)", "Bash(rm *)"];
  if (name === "shell") return ["bash", undefined];
  if (name === "url") return ["https://hooks.example/one", "https://hooks.example/two"];
  switch (f.kind) {
    case "type":
      return [type, type];
    case "text":
    case "nonEmpty":
      return ["one", "two"];
    case "seconds":
      return [5, 6];
    case "count":
      return [10, 20];
    case "flag":
      return [true, false];
    case "object":
      return [{ a: 1 }, { a: 2 }];
    case "headers":
      return [{ A: "1" }, { A: "2" }];
    case "names":
      return [["TOKEN"], ["OTHER"]];
  }
}

/** A handler with every field of the table set to its first value. */
function maximal(c: Case): Record<string, unknown> {
  return Object.fromEntries(Object.entries(c.fields).map(([k, f]) => [k, values(k, f, c.type)[0]]));
}

function normalize(c: Case, raw: Record<string, unknown>) {
  const warnings: Warning[] = [];
  const h = normalizeHandler("PreToolUse", raw, "PreToolUse[0].hooks[0]", [], "test", warnings, c.dialect);
  return { h, warnings };
}

/** The `properties` of the JSON Schema's branch for one handler type. */
function schemaProperties(schema: unknown, type: string): string[] {
  // deno-lint-ignore no-explicit-any
  const s = schema as any;
  const branches = s.properties.hooks.properties.PreToolUse.items.properties.hooks.items.oneOf;
  // deno-lint-ignore no-explicit-any
  const branch = branches.find((b: any) => b.properties.type.const === type);
  return Object.keys(branch.properties);
}

Deno.test("handler shape: the published hooks.json schema lists exactly the mind dialect's fields of each type", async () => {
  const published = JSON.parse(await Deno.readTextFile(`${REPO}/schemas/hooks.schema.json`));
  for (const type of HANDLER_TYPES) {
    const fields = HANDLER_FIELDS[type].fields;
    assertEquals(schemaProperties(published, type), Object.keys(fields), `published ${type}`);
    assertEquals(schemaProperties(CONFIG_SCHEMA, type), Object.keys(fields), `generated ${type}`);
  }
});

Deno.test("handler shape: the normalizer accepts every field of the tables, silently", () => {
  for (const c of CASES) {
    const { h, warnings } = normalize(c, maximal(c));
    const unknown = warnings.filter((w) => w.code === "W_UNKNOWN_FIELD" && !/asyncRewake runs/.test(w.message));
    assertEquals({ ok: h !== null, unknown }, { ok: true, unknown: [] }, `${c.type} ${c.dialect}`);
  }
});

Deno.test("handler shape: the normalized handler has exactly the keys the tables send to the hash", () => {
  for (const c of CASES) {
    const { h } = normalize(c, maximal(c));
    const hashed = new Set(Object.values(c.fields).map((f) => f.hashedAs).filter((k) => k !== null));
    if (c.type === "mcp_tool") { for (const k of Object.keys(MCP_DERIVED)) hashed.add(k); }
    assertEquals(Object.keys(h ?? {}).sort(), [...hashed].sort(), `${c.type} ${c.dialect}`);
  }
});

Deno.test("handler shape: a hashed field changes the hash, an excluded one never does", () => {
  for (const c of CASES) {
    const base = maximal(c);
    const hashOf = (raw: Record<string, unknown>) => {
      const { h } = normalize(c, raw);
      return h === null ? null : contentHashSync("PreToolUse", "Bash", h, c.dialect);
    };
    assertEquals(hashOf(base) !== null, true, `${c.type} ${c.dialect}: the maximal handler normalizes`);
    const seen = Object.entries(c.fields).filter(([, f]) => f.kind !== "type").map(([k, f]) => {
      // An alias pair (command_windows beside commandWindows): the alias alone carries the value.
      const alone = { ...base };
      for (const [other, g] of Object.entries(c.fields)) {
        if (other !== k && g.hashedAs !== null && g.hashedAs === f.hashedAs) delete alone[other];
      }
      const [one, two] = values(k, f, c.type);
      const changed = hashOf({ ...alone, [k]: one }) !== hashOf({ ...alone, [k]: two });
      return { field: k, hashed: f.hashedAs !== null, changed };
    });
    assertEquals(seen, seen.map((s) => ({ ...s, changed: s.hashed })), `${c.type} ${c.dialect}`);
  }
});

Deno.test("handler shape: every excluded field says why; a text field of the wrong type skips the handler", () => {
  const tables: Table[] = HANDLER_TYPES.flatMap((t) => [HANDLER_FIELDS[t].fields, HANDLER_FIELDS[t].claude]);
  const silent = tables.flatMap((t) => Object.entries(t).filter(([, f]) => f.hashedAs === null && !f.notHashed));
  assertEquals(silent, []);
  for (const c of CASES) {
    for (const [k, f] of Object.entries(c.fields)) {
      // `shell` other than bash is Claude Code's PowerShell: unsupported, not a bad field.
      if ((f.kind !== "text" && f.kind !== "nonEmpty") || k === "shell") continue;
      const { h, warnings } = normalize(c, { ...maximal(c), [k]: 7 });
      assertEquals([h, warnings.map((w) => w.code)], [null, ["W_BAD_FIELD"]], `${c.type} ${c.dialect} ${k}`);
    }
  }
});

Deno.test("handler shape: docs/configuration.md's handler fields are the tables' fields", async () => {
  const doc = await Deno.readTextFile(`${REPO}/docs/configuration.md`);
  const section = doc.slice(doc.indexOf("## Handler fields"), doc.indexOf("### The `if` filter"));
  // The first cell of each row names one field or more (`commandWindows` / `command_windows`).
  const named = section.split("\n").filter((l) => l.startsWith("| `"))
    .flatMap((l) => [...l.split("|")[1].matchAll(/`([^`]+)`/g)].map((m) => m[1]));
  const mind = [...new Set(HANDLER_TYPES.flatMap((t) => Object.keys(HANDLER_FIELDS[t].fields)))];
  const any = new Set([...mind, ...HANDLER_TYPES.flatMap((t) => Object.keys(HANDLER_FIELDS[t].claude))]);
  assertEquals({
    undocumented: mind.filter((k) => !named.includes(k)),
    unknown: named.filter((k) => !any.has(k)),
  }, { undocumented: [], unknown: [] });
});
