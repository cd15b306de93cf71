/**
 * End-to-end tests of session end (SPEC §10, §7.2): `mind-hooks session-end` and a `SessionEnd`
 * dispatch kill the session's running async hooks (checked through the pids they recorded), drop
 * the ones still waiting for a slot and the output not delivered yet, and delete the session's
 * spill folder; another session's hooks are left alone.
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "./helpers/assert.ts";
import {
  cmd,
  dispatch,
  event,
  group,
  type HooksSpec,
  makeHome,
  PYTHON,
  runCli,
  sessionId,
  shq,
} from "./helpers/cli.ts";
import {
  type AsyncEnv,
  asyncHook,
  exists,
  hookPid,
  isDir,
  NOT_POSIX,
  pendingResults,
  processGone,
  sessionEnd,
  setup,
  sleep,
  waitFor,
} from "../fixtures/async/harness.ts";

const LONG = Array.from({ length: 10 }, (_, i) => `long${i}`);

/**
 * SessionStart: 10 long async hooks and a synchronous hook whose large output is spilled.
 * PreCompact: an async hook that sleeps 2 s, whose result is left undelivered. SubagentStart: one
 * long async hook, started by another session that session end must not touch.
 */
function endHooks(state: string): HooksSpec {
  const bigOutput = `${shq(PYTHON)} -c ${shq('print("spilled text " * 400)')}`;
  return {
    SessionStart: [
      group([...LONG.map((n) => asyncHook(state, n, 60)), cmd(bigOutput, { additionalContextLimit: 10 })]),
    ],
    PreCompact: [group([asyncHook(state, "medium", 2)])],
    SubagentStart: [group([asyncHook(state, "bystander", 60)])],
  };
}

type Scenario = AsyncEnv & { sid: string; other: string; spill: string; running: number[]; bystander: number };

/**
 * Brings a session to: 8 long hooks running and 2 waiting for a slot, a finished result that no
 * dispatch claimed yet, and a spill file. The 2-second hook starts first and holds a slot while
 * the 10 long ones are started (so it cannot be stuck behind them); it finishes after the
 * SessionStart dispatch returned, so its result stays undelivered, and its slot goes to an 8th
 * long hook.
 */
async function startScenario(): Promise<Scenario> {
  const env = await setup(endHooks);
  const { home, state, cwd, spillRoot } = env;
  const sid = sessionId("end");
  const other = sessionId("bystander");
  await dispatch(home.path, event("PreCompact", { session_id: sid, cwd }));
  const started = await dispatch(home.path, event("SessionStart", { session_id: sid, cwd }));
  assertEquals(started.asyncResults, [], "the 2-second hook finished before SessionStart was dispatched");
  assertEquals(started.runs.filter((r) => r.status === "started").length, 10);
  assertStringIncludes(started.additionalContext[0] ?? "", "full output saved to");
  const spill = join(spillRoot, "hook_outputs", sid);
  assert(isDir(spill), "the large output was not spilled");
  await dispatch(home.path, event("SubagentStart", { session_id: other, cwd }));
  await waitFor("the 2-second hook's result", 10_000, () => pendingResults(home.path, sid).length || undefined);
  const running = await waitFor("8 long hooks to start", 15_000, () => {
    const pids = LONG.map((n) => hookPid(state, n)).filter((p) => p !== undefined);
    return pids.length >= 8 ? pids : undefined;
  });
  const bystander = await waitFor("the other session's hook", 10_000, () => hookPid(state, "bystander"));
  // Leave the 2 waiting hooks a chance to (wrongly) start beyond the 8 slots.
  await sleep(300);
  assertEquals(LONG.filter((n) => hookPid(state, n) !== undefined).length, 8, "more than 8 async hooks started");
  assertEquals(pendingResults(home.path, sid).length, 1, "the 2-second hook's result is waiting");
  return { ...env, sid, other, spill, running, bystander };
}

/** What must hold once the scenario's session ended. */
async function assertEnded(s: Scenario): Promise<void> {
  const { home, state, cwd, sid } = s;
  await waitFor("the killed hooks to be gone", 5_000, () => s.running.every(processGone) || undefined);
  assert(!isDir(s.spill), "the spill folder was not deleted");
  assert(!isDir(join(home.path, "tmp", "async", sid)), "the session's async folder was not deleted");
  // The 2 hooks waiting for a slot never start; the killed ones never finish.
  await sleep(500);
  assertEquals(LONG.filter((n) => hookPid(state, n) !== undefined).length, 8, "a queued hook started after the end");
  assertEquals(LONG.filter((n) => exists(join(state, `${n}.stop`))), [], "a killed hook finished");
  const after = await dispatch(home.path, event("UserPromptSubmit", { session_id: sid, cwd }));
  assertEquals(after.runs, [], "the check must match no hook");
  assertEquals(after.asyncResults, [], "output was delivered after the session ended");
  assert(!processGone(s.bystander), "session end killed another session's hook");
}

/** Ends both sessions and removes the home, whatever the test did. */
async function cleanup(s: Scenario): Promise<void> {
  await sessionEnd(s, s.sid).catch(() => {});
  await sessionEnd(s, s.other).catch(() => {});
  await waitFor("the other session's hook to be gone", 5_000, () => processGone(s.bystander) || undefined)
    .finally(() => s.home.cleanup());
}

Deno.test({
  name: "session-end kills running async hooks, drops queued ones and undelivered output, deletes the spill folder",
  ignore: NOT_POSIX,
  async fn() {
    const s = await startScenario();
    try {
      const res = await sessionEnd(s, s.sid);
      assertEquals(res.stdout.split("\n").filter((l) => l !== "").length, 1, "the summary is one line");
      assertStringIncludes(res.stdout, "8 running async hooks killed");
      await assertEnded(s);
      assertEquals(pendingResults(s.home.path, s.sid), [], "the undelivered result was kept");
      // Ending again is harmless.
      assertStringIncludes((await sessionEnd(s, s.sid)).stdout, "0 running async hooks killed");
    } finally {
      await cleanup(s);
    }
  },
});

Deno.test({
  name: "a SessionEnd dispatch ends the session the same way",
  ignore: NOT_POSIX,
  async fn() {
    const s = await startScenario();
    try {
      const r = await dispatch(s.home.path, event("SessionEnd", { session_id: s.sid, cwd: s.cwd }));
      assertEquals([r.hook_event_name, r.runs], ["SessionEnd", []]);
      // The result already waiting when SessionEnd came is delivered with it, and never again.
      assertEquals(r.asyncResults.map((x) => x.systemMessage), ["async medium done"]);
      await assertEnded(s);
    } finally {
      await cleanup(s);
    }
  },
});

Deno.test("session-end: --session is required; bad options are one-line usage errors", async () => {
  const home = await makeHome();
  try {
    for (
      const args of [["session-end"], ["session-end", "--session", ""], ["session-end", "--session", "s", "--bogus"]]
    ) {
      const res = await runCli([...args, "--home", home.path]);
      assertEquals(res.code, 1, args.join(" "));
      // One line; a missing --session is followed by the command's usage line.
      const shape = args.length === 1
        ? /^mind-hooks: [^\n]+\nusage: mind-hooks session-end [^\n]+\n$/
        : /^mind-hooks: [^\n]+\n$/;
      assert(shape.test(res.stderr), `not one line: ${JSON.stringify(res.stderr)}`);
      assertEquals(res.stdout, "");
    }
  } finally {
    await home.cleanup();
  }
});
