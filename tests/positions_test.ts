/**
 * Positions come from data (src/config/positions.ts): every handler and every warning carries its
 * value path from where discovery made it, and `list`, `review` and `validate` find its line and
 * column by that path in the file's syntax tree (TOML) or jsonc tree (JSON). The dispatch result
 * carries the path too. `validate FILE` runs discovery's own per-file checks, so a problem has one
 * code and one sentence in `validate`, `list` and `dispatch`.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import { dispatch, event, makeHome, makeProject, runCli, writeConfigToml } from "./helpers/cli.ts";
import { join } from "node:path";
import { RESULT_SCHEMA } from "../src/generated/schemas.ts";
import { validateJson } from "../src/schema/validate.ts";

/** The warnings lines of `validate` (stderr), without the summary. */
async function validateLines(args: string[], cwd?: string): Promise<string[]> {
  const r = await runCli(["validate", ...args], cwd === undefined ? {} : { cwd });
  return r.stderr.trimEnd().split("\n").filter((l) => l !== "");
}

Deno.test("positions: a group that is not an object gets a line (its message names no field)", async () => {
  await using home = await makeHome();
  const toml = await writeConfigToml(home.path, `[hooks]\nStop = [\n  "not a group",\n]\n`);
  const json = join(home.path, "other.json");
  await Deno.writeTextFile(json, `{\n  "hooks": {\n    "Stop": [{ "hooks": [] }, 5]\n  }\n}\n`);
  assertEquals(await validateLines([toml, json]), [
    `W_BAD_GROUP ${toml}:3:3: Stop[0] must be an object with matcher and hooks`,
    `W_BAD_GROUP ${json}:3:31: Stop[1] must be an object with matcher and hooks`,
  ]);
});

Deno.test("positions: handlers and warnings of a plugin's inline manifest entries are placed in the manifest", async () => {
  await using home = await makeHome();
  const root = join(home.path, "plugins", "inline");
  await Deno.mkdir(join(root, ".codex-plugin"), { recursive: true });
  const manifest = join(root, ".codex-plugin", "plugin.json");
  await Deno.writeTextFile(
    manifest,
    [
      `{`,
      `  "name": "inline",`,
      `  "hooks": [`,
      `    { "hooks": { "Stop": [{ "hooks": [{ "type": "command", "command": "true", "colour": 1 }] }] } },`,
      `    {`,
      `      "SessionStart": [`,
      `        { "hooks": [{ "type": "command", "command": "true" }] }`,
      `      ]`,
      `    }`,
      `  ]`,
      `}`,
      ``,
    ].join("\n"),
  );
  await writeConfigToml(home.path, `[plugins.inline]\nenabled = true\n`);
  const r = await runCli(["list", "--json", "--home", home.path]);
  assertEquals(r.code, 0, r.stderr);
  const data = r.json();
  assertEquals(
    data.hooks.map((h: { key: string; line: number | null }) => [h.key, h.line]),
    [[`plugin:${manifest}#0:Stop:0:0`, 4], [`plugin:${manifest}#1:SessionStart:0:0`, 7]],
  );
  const colour = data.warnings.find((w: { code: string }) => w.code === "W_UNKNOWN_FIELD");
  assertEquals([colour.source, colour.line, colour.column], [`${manifest}#0`, 4, 79]);
  assertEquals(colour.path, ["hooks", 0, "hooks", "Stop", 0, "hooks", 0, "colour"]);
});

Deno.test("positions: the dispatch result carries each warning's value path, in the result schema", async () => {
  await using home = await makeHome();
  await writeConfigToml(
    home.path,
    `[[hooks.PreToolUse]]\nmatcher = "("\nhooks = [{ type = "command", command = "true" }]\n`,
  );
  const r = await dispatch(home.path, event("PreToolUse"));
  const bad = r.warnings.find((w) => w.code === "W_BAD_MATCHER") as Record<string, unknown> | undefined;
  assert(bad !== undefined, JSON.stringify(r.warnings));
  assertEquals(bad.path, ["hooks", "PreToolUse", 0, "matcher"]);
  assertEquals(bad.line, undefined, "dispatch reads no positions");
  assertEquals(validateJson(RESULT_SCHEMA, r), null);
});

Deno.test("positions: validate FILE and discovery say the same about state a layer may not hold", async () => {
  await using home = await makeHome();
  await using project = await makeProject();
  const hooksJson = join(project.mindDir, "hooks.json");
  await Deno.writeTextFile(
    hooksJson,
    `{\n  "hooks": {\n    "state": { "k": { "enabled": false } },\n    "Stop": []\n  }\n}\n`,
  );
  // The untrusted project, as `validate` (no FILE) reads it, and the same file given as FILE.
  const project_ = (await validateLines(["--home", home.path], project.path))
    .filter((l) => l.startsWith("W_STATE_NOT_AUTHORITATIVE"));
  assertEquals(project_, [
    `W_STATE_NOT_AUTHORITATIVE ${hooksJson}:3:5: hook state in the project layer is ignored: only the user config.toml (or -c) can trust or disable hooks`,
  ]);
  // As a user hooks.json: the sentence discovery gives a user-layer hooks.json.
  const user = join(home.path, "hooks.json");
  await Deno.copyFile(hooksJson, user);
  const asFile = await validateLines([user]);
  const listed = await runCli(["list", "--json", "--home", home.path]);
  const fromList = listed.json().warnings.filter((w: { code: string }) => w.code === "W_STATE_NOT_AUTHORITATIVE");
  assertEquals(asFile, [
    `W_STATE_NOT_AUTHORITATIVE ${user}:3:5: hook state belongs in config.toml, not hooks.json; ignored`,
  ]);
  assertEquals(fromList.map((w: { message: string; line: number }) => [w.message, w.line]), [
    ["hook state belongs in config.toml, not hooks.json; ignored", 3],
  ]);
});

Deno.test({
  name: "validate: an untrusted project whose .mind leads outside it is not read, as discovery does not read it",
  ignore: Deno.build.os === "windows",
}, async () => {
  await using home = await makeHome();
  await using project = await makeProject();
  await using elsewhere = await makeHome();
  await Deno.writeTextFile(join(elsewhere.path, "hooks.json"), `{"hooks": {"Bogus": []}}\n`);
  await Deno.remove(project.mindDir);
  await Deno.symlink(elsewhere.path, project.mindDir);
  const lines = await validateLines(["--home", home.path], project.path);
  assertEquals(lines.map((l) => l.split(" ")[0]), ["W_OUTSIDE_ROOT"]);
  assert(lines[0].includes(`${project.mindDir} leads outside the project`), lines[0]);
});
