/**
 * `mind-hooks schema [input|output|config|result] [EVENT]`: prints exactly the published
 * `schemas/*.json`, loads no zod, and refuses unknown kinds and events with one usage line.
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { EVENT_NAMES, eventFileStem } from "../src/events/names.ts";
import { CONFIG_SCHEMA } from "../src/generated/schemas.ts";
// A full JSON Schema implementation (Ajv, through the MCP SDK the project already depends on), as an
// editor would use: the engine's own run-time validator covers only the subset its wire shapes use.
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";

const ROOT = decodeURIComponent(new URL("../", import.meta.url).pathname).replace(/\/$/, "");
const CLI = ["run", "-q", "-P", "--no-prompt", "--config", `${ROOT}/deno.json`, `${ROOT}/main.ts`];

async function schema(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [...CLI, "schema", ...args],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

const published = (name: string) => Deno.readTextFileSync(`${ROOT}/schemas/${name}`);

Deno.test("schema: --help is an index of kinds and events; without a kind, a usage error", async () => {
  const help = await schema("--help");
  assertEquals(help.code, 0, help.stderr);
  for (const kind of ["input", "output", "config", "result"]) {
    assertMatch(help.stdout, new RegExp(`^  ${kind}\\b`, "m"));
  }
  for (const e of EVENT_NAMES) assert(help.stdout.includes(e), `index misses ${e}`);
  const bare = await schema();
  assertEquals([bare.code, bare.stdout], [1, ""]);
  assertMatch(bare.stderr, /^mind-hooks: schema needs a kind: input, output, config or result\nusage: /);
});

Deno.test("schema: each kind prints the published file, byte for byte", async () => {
  assertEquals((await schema("config")).stdout, published("hooks.schema.json"));
  assertEquals((await schema("result")).stdout, published("dispatch-result.schema.json"));
  assertEquals((await schema("input", "PreToolUse")).stdout, published("pre-tool-use.input.schema.json"));
  // The file-name form of an event is accepted too.
  assertEquals((await schema("output", "subagent-stop")).stdout, published("subagent-stop.output.schema.json"));
});

Deno.test("schema: input and output without EVENT give every event's schema", async () => {
  for (const kind of ["input", "output"] as const) {
    const r = await schema(kind);
    assertEquals(r.code, 0, r.stderr);
    const all = JSON.parse(r.stdout) as Record<string, unknown>;
    assertEquals(Object.keys(all), [...EVENT_NAMES]);
    for (const e of EVENT_NAMES) {
      assertEquals(all[e], JSON.parse(published(`${eventFileStem(e)}.${kind}.schema.json`)), `${kind} ${e}`);
    }
  }
});

Deno.test("schema: unknown kinds, unknown events and extra arguments are one-line usage errors", async () => {
  const cases: [string[], RegExp][] = [
    [
      ["inputs"],
      /^mind-hooks: schema: unknown kind "inputs"; did you mean "input"\? \(input, output, config or result\)$/,
    ],
    [["input", "PreToolUsed"], /^mind-hooks: unknown event "PreToolUsed"/],
    [["output", "pretooluse"], /^mind-hooks: unknown event "pretooluse"/],
    [["config", "PreToolUse"], /^mind-hooks: schema config takes no EVENT$/],
    [["result", "Stop"], /^mind-hooks: schema result takes no EVENT$/],
    [["input", "Stop", "extra"], /^mind-hooks: schema takes at most KIND and EVENT/],
    [["--bogus"], /^mind-hooks: unknown option --bogus$/],
  ];
  for (const [args, expected] of cases) {
    const r = await schema(...args);
    assertEquals(r.code, 1, `${args.join(" ")}: exit ${r.code}`);
    assertEquals(r.stdout, "", `${args.join(" ")} printed to stdout`);
    assertEquals(r.stderr.trim().split("\n").length, 1, r.stderr);
    assertMatch(r.stderr.trim(), expected);
  }
});

Deno.test("schema config: usable as $schema for a hooks.json, and it catches mistakes", async () => {
  const r = await schema("config");
  const config = JSON.parse(r.stdout);
  assertEquals(config.$schema, "https://json-schema.org/draft/2020-12/schema");
  assertEquals(config, CONFIG_SCHEMA);
  const validate = new AjvJsonSchemaValidator().getValidator(config);
  const ok = (v: unknown) => validate(v).valid;

  for (const fixture of ["plugins/claude-style/hooks/hooks.json", "plugins/codex-inline/extra/hooks.json"]) {
    const file = JSON.parse(Deno.readTextFileSync(`${ROOT}/fixtures/${fixture}`));
    assert(ok(file), `${fixture}: ${validate(file).errorMessage}`);
    assert(ok({ $schema: "./schemas/hooks.schema.json", ...file }), "a $schema key must be accepted");
  }
  const mcp = { type: "mcp_tool", server: "scanner", tool: "scan", input: { patch: "${tool_input.command}" } };
  assert(ok({ hooks: { PreToolUse: [{ matcher: "Edit|Write", hooks: [mcp] }] } }));

  const wrong: [string, unknown][] = [
    ["unknown event", { hooks: { PreToolUsed: [] } }],
    ["unknown root field", { hooks: {}, state: {} }],
    ["command handler without command", { hooks: { Stop: [{ hooks: [{ type: "command" }] }] } }],
    ["empty command", { hooks: { Stop: [{ hooks: [{ type: "command", command: "" }] }] } }],
    ["mcp_tool without server", { hooks: { Stop: [{ hooks: [{ type: "mcp_tool", tool: "t" }] }] } }],
    ["unsupported handler type", { hooks: { Stop: [{ hooks: [{ type: "agent", prompt: "p" }] }] } }],
    ["prompt handler without prompt", { hooks: { Stop: [{ hooks: [{ type: "prompt" }] }] } }],
    ["timeout of zero", { hooks: { Stop: [{ hooks: [{ type: "command", command: "x", timeout: 0 }] }] } }],
    ["group without hooks", { hooks: { Stop: [{ matcher: "x" }] } }],
  ];
  for (const [what, value] of wrong) assertEquals(ok(value), false, `${what} was accepted`);
});

Deno.test("schema: the command's module graph holds no zod (it prints pre-generated schemas)", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "--config", `${ROOT}/deno.json`, `${ROOT}/src/cli/schema.ts`],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
  const graph = JSON.parse(new TextDecoder().decode(out.stdout)) as { modules: { specifier: string }[] };
  const specifiers = graph.modules.map((m) => m.specifier);
  assert(specifiers.some((s) => s.endsWith("/src/generated/schemas.ts")));
  assertEquals(specifiers.filter((s) => s.startsWith("npm:")), []);
});
