/**
 * A library host's trace (issue 26): a `trace` passed to `mod.ts`'s `dispatch` (from `newTrace()`)
 * is filled the way `dispatch --explain` fills its own — the same files, the same hook records —
 * and a dispatch without one records nothing.
 */
import { assertEquals } from "./helpers/assert.ts";
import { cmd, echoHook, event, group, makeHome, runCli, testEnv, trustAll, writeHooksJson } from "./helpers/cli.ts";
import { join } from "node:path";
import { dispatch, newTrace } from "../mod.ts";
import { renderTrace } from "../src/cli/explain.ts";

const REQUIREMENTS = "/nonexistent/mind-hooks-tests/requirements.toml";

Deno.test("mod.ts: a trace passed to dispatch is recorded, as dispatch --explain records it", async () => {
  await using home = await makeHome();
  const deny = echoHook({
    hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "no rm" },
  });
  const file = await writeHooksJson(home.path, {
    PreToolUse: [group([{ ...cmd(deny), name: "No rm -rf" }], "Bash"), group([cmd("echo edit")], "Edit")],
  });
  await trustAll(home.path);
  const input = event("PreToolUse");
  const trace = newTrace();
  const options = { home: home.path, env: testEnv(), requirements: REQUIREMENTS };
  const result = await dispatch(input, { ...options, tempDir: join(home.path, "tmp-spill"), context: { trace } });
  assertEquals([result.decision, result.reason], ["deny", "no rm"]);
  assertEquals(trace.event, "PreToolUse");
  assertEquals(
    trace.handlers.map((h) => [h.key, h.match, h.status, h.outcome, h.reading]),
    [
      [`user:${file}:PreToolUse:0:0`, "matched", "trusted", "blocked", 'exit 0, JSON: deny "no rm"'],
      [`user:${file}:PreToolUse:1:0`, "not matched", "trusted", null, null],
    ],
  );
  assertEquals(trace.files.find((f) => f.path === file), { layer: "user", path: file, state: "read", hooks: 2 });
  // The CLI's --explain renders the same trace (but for the timings).
  const cli = await runCli(["dispatch", "--explain", "--home", home.path], { stdin: JSON.stringify(input) });
  const untimed = (text: string) => text.replace(/ in \d+ ms/g, "");
  // The CLI's last lines are its own (who answered, the stage times), not the trace's.
  const traced = (text: string) => untimed(text).split("\nanswered ")[0].trimEnd();
  assertEquals(traced(renderTrace(trace, result, undefined, testEnv().HOME)), traced(cli.stderr));

  // Without a trace nothing is recorded (and the result is the same).
  const plain = await dispatch(input, { ...options, tempDir: join(home.path, "tmp-spill") });
  assertEquals([plain.decision, plain.reason], ["deny", "no rm"]);
});
