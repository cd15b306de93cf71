/**
 * The SIGTERM→SIGKILL grace is timed on the monotonic clock (SPEC §6 r4): with the wall clock stepped
 * back an hour right after the SIGTERM (NTP, a resumed laptop), a hook that ignores SIGTERM still gets
 * its SIGKILL after the grace. Timed on `Date.now()`, the grace grew by the hour the clock went back.
 */
import { assertEquals } from "../../tests/helpers/assert.ts";
import { killProcessTree } from "./shell.ts";

Deno.test({
  name: "killProcessTree: a wall clock stepped back does not stretch the grace before SIGKILL",
  ignore: Deno.build.os === "windows",
  async fn() {
    const child = new Deno.Command("/bin/sh", {
      args: ["-c", "trap '' TERM; echo ready; while :; do sleep 1; done"],
      detached: true,
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    assertEquals((await reader.read()).value?.trim(), "ready");
    const realNow = Date.now;
    let calls = 0;
    // The first reading is the real time; every later one is an hour earlier.
    Date.now = () => realNow() - (calls++ === 0 ? 0 : 3_600_000);
    let guard: ReturnType<typeof setTimeout> | undefined;
    try {
      // A guard against the old behaviour's hour-long wait: it fails the test instead of hanging it.
      const killed = await Promise.race([
        killProcessTree(child.pid, "posix", 100).then(() => true),
        new Promise<boolean>((r) => guard = setTimeout(() => r(false), 60_000)),
      ]);
      assertEquals(killed, true);
    } finally {
      Date.now = realNow;
      clearTimeout(guard);
      try {
        Deno.kill(-child.pid, "SIGKILL");
      } catch { /* gone */ }
      await reader.cancel();
    }
    assertEquals((await child.status).signal, "SIGKILL");
  },
});
