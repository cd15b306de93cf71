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
    const child = new Deno.Command("prlimit", {
      args: [
        "--nofile=256",
        "--",
        Deno.execPath(),
        ...["run", "-q", "-P", "--no-prompt", "--config", `${REPO}/deno.json`, `${REPO}/main.ts`],
        ...["dispatch", "--home", home.path],
      ],
      env: { ...testEnv(), MIND_TEMP_DIR: `${home.path}/tmp-spill` },
      clearEnv: true,
      cwd: home.path,
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
    const stderr = new TextDecoder().decode(out.stderr);
    assertEquals(out.code, 0, stderr);
    const result = JSON.parse(new TextDecoder().decode(out.stdout));
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
