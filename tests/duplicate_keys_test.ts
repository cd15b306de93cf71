/**
 * Duplicate keys in JSON configuration files (SPEC §2.1, §14): `JSON.parse` keeps the last of a
 * repeated key, so that is what runs; `list` must show that one (its line) and every duplicate is a
 * `W_DUPLICATE_KEY` warning naming file, line and column — at any depth (event names, handler fields),
 * whether the key is spelled plainly or with escapes, in strict JSON and in JSONC.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import { makeHome, runCli } from "./helpers/cli.ts";
import { join } from "node:path";

type ListJson = {
  hooks: { key: string; line: number | null; command?: string }[];
  warnings: { code: string; message: string; source: string; line?: number; column?: number }[];
};

async function list(home: string): Promise<ListJson> {
  const r = await runCli(["list", "--json", "--home", home]);
  assertEquals(r.code, 0, r.stderr);
  return r.json<ListJson>();
}

const TWICE = `{
  "hooks": {
    "PreToolUse": [
      { "matcher": "Bash", "hooks": [ { "type": "command", "command": "echo shown-first" } ] }
    ],
    "PreToolUse": [
      { "matcher": "Edit",
        "hooks": [ { "type": "command", "command": "echo first", "\\u0063ommand": "echo runs" } ] }
    ]
  }
}
`;

for (const [form, text] of [["strict JSON", TWICE], ["JSONC", "// a comment makes it JSONC\n" + TWICE]] as const) {
  Deno.test(`duplicate keys (${form}): list shows the one that runs, and each duplicate is a warning`, async () => {
    await using home = await makeHome();
    const file = join(home.path, "hooks.json");
    await Deno.writeTextFile(file, text);
    const data = await list(home.path);
    const shift = form === "JSONC" ? 1 : 0;
    assertEquals(data.hooks.map((h) => [h.command, h.line]), [["echo runs", 8 + shift]]);
    const dups = data.warnings.filter((w) => w.code === "W_DUPLICATE_KEY");
    assertEquals(dups.map((w) => [w.source, w.line, w.column]), [[file, 6 + shift, 5], [file, 8 + shift, 66]]);
    assert(dups[1].message.includes('"command"'), dups[1].message);
  });
}

Deno.test("duplicate keys: validate names each one with file, line and column", async () => {
  await using home = await makeHome();
  const file = join(home.path, "hooks.json");
  await Deno.writeTextFile(file, TWICE);
  const r = await runCli(["validate", file]);
  const lines = r.stderr.split("\n").filter((l) => l.startsWith("W_DUPLICATE_KEY"));
  assertEquals(lines.map((l) => l.split(": ")[0]), [
    `W_DUPLICATE_KEY ${file}:6:5`,
    `W_DUPLICATE_KEY ${file}:8:66`,
  ]);
});
