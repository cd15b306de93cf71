/**
 * Spawning within the process's limits (SPEC §6 r4): 500 matching hooks under a 256-descriptor limit
 * (macOS's default) all run — queued, not failed with "Too many open files" — and the deny of the
 * last one stands. Before the queue, 444 of them failed to spawn and the deny was lost.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import {
  assertBundleFresh,
  cmd,
  dispatch,
  type DispatchResult,
  echoHook,
  event,
  group,
  makeHome,
  REPO,
  sessionId,
  testEnv,
  trustAll,
  writeHooksJson,
} from "./helpers/cli.ts";

const HOOKS = 500;

/** `dispatch` of `input` under `prlimit --nofile=<files>`: its result. */
async function dispatchUnderLimit(home: string, input: unknown, files: number): Promise<DispatchResult> {
  const child = new Deno.Command("prlimit", {
    args: [
      `--nofile=${files}`,
      "--",
      Deno.execPath(),
      ...["run", "-q", "-P", "--no-prompt", "--config", `${REPO}/deno.json`, `${REPO}/main.ts`],
      ...["dispatch", "--home", home],
    ],
    env: { ...testEnv(), MIND_TEMP_DIR: `${home}/tmp-spill` },
    clearEnv: true,
    cwd: home,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    // A bound on the test, not on the engine: a hang fails the test instead of stalling the suite.
    signal: AbortSignal.timeout(300_000),
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(JSON.stringify(input)));
  await writer.close();
  const out = await child.output();
  assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

Deno.test({
  name: "spawning: 500 matching hooks under prlimit --nofile=256 all run, and the last one's deny stands",
  ignore: Deno.build.os !== "linux",
  async fn() {
    await assertBundleFresh();
    await using home = await makeHome();
    const handlers = Array.from({ length: HOOKS - 1 }, (_, i) => cmd(`exit 0 # ${i}`));
    handlers.push(cmd(echoHook({ decision: "block", reason: "the last hook says no" })));
    await writeHooksJson(home.path, { PreToolUse: [group(handlers, "Bash")] });
    await trustAll(home.path, home.path);
    const input = event("PreToolUse", { session_id: sessionId("spawn"), cwd: home.path });
    const result = await dispatchUnderLimit(home.path, input, 256);
    const failed = result.runs.filter((r: { status: string }) => r.status === "failed");
    assertEquals(failed.length, 0, JSON.stringify(failed.slice(0, 3)));
    assertEquals(result.runs.length, HOOKS);
    assertEquals(result.decision, "deny");
    assert(String(result.reason).includes("the last hook says no"), String(result.reason));
  },
});

Deno.test({
  name: "spawning: a hook that cannot be started is a named failure, and failClosed makes it block",
  ignore: Deno.build.os === "windows",
  async fn() {
    await using home = await makeHome();
    await writeHooksJson(home.path, { PreToolUse: [group([cmd("true", { failClosed: true })], "Bash")] });
    await trustAll(home.path, home.path);
    // The hook shell does not exist: the spawn itself fails.
    const r = await dispatch(home.path, event("PreToolUse", { session_id: sessionId("nostart"), cwd: home.path }), [], {
      env: { SHELL: `${home.path}/no-such-shell` },
    });
    assertEquals(r.runs.map((x) => x.status), ["failed"]);
    assert(String(r.runs[0].reason).startsWith("spawn failed: "), String(r.runs[0].reason));
    assertEquals(r.decision, "deny");
    assert(String(r.reason).includes("failed (failClosed): spawn failed: "), String(r.reason));
  },
});

Deno.test({
  name:
    "spawning: a queued hook's timeout counts from its start — one slot, four 1 s hooks with a 3 s timeout all complete",
  ignore: Deno.build.os !== "linux",
  async fn() {
    await assertBundleFresh();
    await using home = await makeHome();
    // 68 descriptors: 64 left to the engine, one slot of 4. The fourth hook starts after about 3 s.
    const handlers = Array.from({ length: 4 }, (_, i) => cmd(`sleep 1 # ${i}`, { timeout: 3 }));
    await writeHooksJson(home.path, { PreToolUse: [group(handlers, "Bash")] });
    await trustAll(home.path, home.path);
    const result = await dispatchUnderLimit(
      home.path,
      event("PreToolUse", { session_id: sessionId("queued-timeout"), cwd: home.path }),
      68,
    );
    assertEquals(result.runs.map((r) => r.status), ["completed", "completed", "completed", "completed"]);
  },
});
