/**
 * Background work is never lost in silence (SPEC §6 r4): an async run is reported `started` only once
 * its job is durably queued, else it is a failure that says why; a dead async runner's slot is never
 * reclaimed while the hook it started still runs, so session end still kills that hook.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import { cmd, dispatch, event, group, makeHome, runCli, sessionId, trustAll, writeHooksJson } from "./helpers/cli.ts";
import { asyncDir } from "../src/session/async.ts";

Deno.test({
  name: "async: a job that cannot be queued (its folder cannot be made) is failed, named — never started",
  ignore: Deno.build.os === "windows",
  async fn() {
    await using home = await makeHome();
    await writeHooksJson(home.path, {
      PostToolUse: [group([cmd("cat >/dev/null; echo ran >> ran.txt", { async: true }), cmd("true")])],
    });
    await trustAll(home.path, home.path);
    // Fault injection in place of a full disk: the async folder is a file, so no job file can be written.
    await Deno.mkdir(`${home.path}/tmp`, { recursive: true });
    await Deno.writeTextFile(`${home.path}/tmp/async`, "");
    const r = await dispatch(home.path, event("PostToolUse", { cwd: home.path, session_id: sessionId("unqueued") }));
    assertEquals(r.runs.map((x) => x.status), ["failed", "completed"]);
    const reason = String(r.runs[0].reason);
    assert(reason.startsWith("async hooks could not be started: "), reason);
    assert(r.systemMessages.some((m) => m === reason), JSON.stringify(r.systemMessages));
  },
});

Deno.test({
  name: "async: a dead runner's slot whose hook still runs is not reclaimed — session-end still kills that hook",
  ignore: Deno.build.os === "windows",
  async fn() {
    await using home = await makeHome();
    await writeHooksJson(home.path, { PostToolUse: [group([cmd("cat >/dev/null", { async: true })])] });
    await trustAll(home.path, home.path);
    const sid = sessionId("reclaim");
    // A runner that died (its pid is gone) while the hook it started (its own process group) still runs.
    const dead = new Deno.Command("true").spawn();
    await dead.status;
    const hook = new Deno.Command("sleep", { args: ["300"], detached: true, stdin: "null" }).spawn();
    try {
      const slot = `${asyncDir(home.path, sid)}/running/slot-0`;
      await Deno.mkdir(slot, { recursive: true });
      await Deno.writeTextFile(`${slot}/owner`, String(dead.pid));
      await Deno.writeTextFile(`${slot}/pid`, String(hook.pid));
      // A new async job of the session: its runner looks for a slot, and passes slot-0 by.
      await dispatch(home.path, event("PostToolUse", { cwd: home.path, session_id: sid }));
      const results = `${asyncDir(home.path, sid)}/results`;
      for (let i = 0; i < 600 && (await count(results)) === 0; i++) await new Promise((r) => setTimeout(r, 100));
      assertEquals(await count(results), 1, "the new job ran in another slot");
      assertEquals(await Deno.readTextFile(`${slot}/pid`), String(hook.pid), "slot-0 still names the running hook");
      const end = await runCli(["session-end", "--session", sid, "--home", home.path]);
      assertEquals(end.code, 0, end.stderr);
      const status = await Promise.race([
        hook.status,
        new Promise<null>((r) => setTimeout(() => r(null), 30_000)),
      ]);
      assert(status !== null && !status.success, "session end killed the hook its dead runner had started");
    } finally {
      try {
        hook.kill("SIGKILL");
      } catch { /* already gone */ }
      await hook.status;
    }
  },
});

async function count(dir: string): Promise<number> {
  let n = 0;
  try {
    for await (const e of Deno.readDir(dir)) if (e.name.endsWith(".json")) n++;
  } catch { /* not there yet */ }
  return n;
}
