/**
 * A handler's `name` (issue 16; Gemini CLI has one): optional and display only. `list` (text and
 * `--json`) shows it beside what runs, never instead of it; it does not enter the content hash, so
 * naming or renaming a trusted hook keeps it trusted; a name that is not a string skips its handler
 * like any field of the wrong type.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import { dispatch, event, group, makeHome, runCli, trustAll, writeHooksJson } from "./helpers/cli.ts";
import { contentHashSync } from "../src/trust/hash.ts";

Deno.test("name: shown beside the command, not hashed, a trusted hook stays trusted when named", async () => {
  await using home = await makeHome();
  const write = (extra: Record<string, unknown>) =>
    writeHooksJson(home.path, { Stop: [group([{ type: "command", command: "echo '{}'", ...extra }])] });
  const file = await write({});
  await trustAll(home.path);
  const listed = async () => (await runCli(["list", "--json", "--home", home.path])).json().hooks[0];
  const before = await listed();
  await write({ name: "Check the \u001b[2Jturn" });
  const after = await listed();
  assertEquals(
    [after.status, after.hash, after.name, after.command],
    ["trusted", before.hash, "Check the \u001b[2Jturn", "echo '{}'"],
  );
  // The hash is SPEC §3.2's, computed without the name.
  assertEquals(
    after.hash,
    contentHashSync("Stop", null, {
      type: "command",
      command: "echo '{}'",
      timeout: 600,
      async: false,
      additionalContextLimit: 2500,
    }),
  );
  const text = (await runCli(["list", "--home", home.path])).stdout;
  assert(
    text.includes(`    Stop  matcher: (all)  command: echo '{}'  name: "Check the \\u001b[2Jturn"\n`),
    `the name follows the command, escaped:\n${text}`,
  );
  const r = await dispatch(home.path, event("Stop"));
  assertEquals(r.runs.map((x) => [x.key, x.status]), [[`user:${file}:Stop:0:0`, "completed"]]);
});

Deno.test("name: not a string skips the handler with W_BAD_FIELD", async () => {
  await using home = await makeHome();
  await writeHooksJson(home.path, { Stop: [group([{ type: "command", command: "true", name: 7 }])] });
  const data = (await runCli(["list", "--json", "--home", home.path])).json();
  assertEquals(
    [data.hooks.length, data.warnings.map((w: { code: string; message: string }) => [w.code, w.message])],
    [0, [["W_BAD_FIELD", "Stop[0].hooks[0]: name must be a string; handler skipped"]]],
  );
});
