/**
 * SPEC §7.1 (r3): a missing cwd never fails every guard open. When the event's `cwd` is not an existing
 * directory (deleted, or a file), handlers run in the project root, else in the nearest existing ancestor
 * of the cwd; the result carries `W_CWD_MISSING` in `warnings` and `systemMessages`; the hook input's
 * `cwd` stays as the host sent it. Before r3 the spawn failed and a deny guard let the call through.
 * Checked on every path: the fast path (user layer), the Worker, a trusted project's sandboxed run,
 * `serve` and `mod.ts`.
 */
import { join } from "node:path";
import { assertEquals } from "./helpers/assert.ts";
import { cmd, event, group, makeHome, sessionId, shq, trustAll, trustProject, writeHooksJson } from "./helpers/cli.ts";
import { dispatchEveryPath } from "./helpers/every_path.ts";

/** A guard that records where it ran and what cwd it was told, then denies. */
function recordingGuard(out: string): string {
  return `cat > ${shq(join(out, "input.json"))}; pwd > ${shq(join(out, "pwd"))}; ` +
    `printf '%s\\n' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"guarded"}}'`;
}

const bash = (cwd: string) =>
  event("PreToolUse", { cwd, tool_name: "Bash", tool_input: { command: "rm -rf /" }, session_id: sessionId("cwd") });

Deno.test("missing cwd: a user-layer deny guard still denies, runs in the nearest existing ancestor, on every path", async () => {
  await using home = await makeHome();
  const work = await Deno.realPath(await Deno.makeTempDir({ prefix: "mind-hooks-cwd-" }));
  try {
    await writeHooksJson(home.path, { PreToolUse: [group([cmd(recordingGuard(home.path))], "Bash")] });
    await trustAll(home.path);
    const gone = join(work, "deleted", "deeper");
    const all = await dispatchEveryPath({
      args: ["--home", home.path],
      input: bash(gone),
      env: { MIND_TEMP_DIR: join(home.path, "spill") },
    });
    const line = `the event's cwd ${gone} is not an existing directory: hooks ran in ${work}`;
    for (const [path, r] of Object.entries(all)) {
      assertEquals(
        [path, r.decision, r.reason, r.runs.map((x) => x.status)],
        [path, "deny", "guarded", ["blocked"]],
      );
      assertEquals(r.warnings.filter((w) => w.code === "W_CWD_MISSING").map((w) => w.message), [line], path);
      assertEquals(r.systemMessages, [line], path);
      assertEquals(r, all.cli, `${path} differs`);
      assertEquals((await Deno.readTextFile(join(home.path, "pwd"))).trim(), work, path);
      assertEquals(JSON.parse(await Deno.readTextFile(join(home.path, "input.json"))).cwd, gone, path);
    }
    // A cwd that is a file is no directory either.
    await Deno.writeTextFile(join(work, "file"), "");
    const file = await dispatchEveryPath({ args: ["--home", home.path], input: bash(join(work, "file")) }, ["cli"]);
    assertEquals([file.cli.decision, (await Deno.readTextFile(join(home.path, "pwd"))).trim()], ["deny", work]);
    // An existing cwd: no warning, and the hook runs there.
    const here = await dispatchEveryPath({ args: ["--home", home.path], input: bash(work) }, ["cli"]);
    assertEquals([here.cli.decision, here.cli.warnings, here.cli.systemMessages], ["deny", [], []]);
  } finally {
    await Deno.remove(work, { recursive: true }).catch(() => {});
  }
});

Deno.test("missing cwd: inside a trusted project the hooks run in the project root (its sandboxed run too)", async () => {
  await using home = await makeHome();
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "mind-hooks-cwd-proj-" }));
  try {
    await writeHooksJson(join(root, ".mind"), { PreToolUse: [group([cmd(recordingGuard(home.path))], "Bash")] });
    await trustProject(home.path, root);
    const gone = join(root, "build", "tmp");
    const all = await dispatchEveryPath({ args: ["--home", home.path], input: bash(gone) });
    for (const [path, r] of Object.entries(all)) {
      assertEquals([path, r.decision, r.systemMessages], [
        path,
        "deny",
        [`the event's cwd ${gone} is not an existing directory: hooks ran in ${root}`],
      ]);
      assertEquals((await Deno.readTextFile(join(home.path, "pwd"))).trim(), root, path);
    }
  } finally {
    await Deno.remove(root, { recursive: true }).catch(() => {});
  }
});
