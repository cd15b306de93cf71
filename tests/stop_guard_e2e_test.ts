/**
 * The Stop-loop guard across processes (SPEC §8): 8 subagents of one session stop at once, each
 * through its own one-shot `dispatch`, and a hook blocks every stop; with `hooks.stop_block_cap = 2`
 * the first two rounds block for all 8 and the third is ignored for all 8 (`W_STOP_LOOP_CAP`). Without
 * the guard's lock the processes lost each other's counts and let blocks past the cap stand.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import {
  cmd,
  dispatch,
  echoHook,
  event,
  group,
  makeHome,
  sessionId,
  trustAll,
  writeConfigToml,
  writeHooksJson,
} from "./helpers/cli.ts";

Deno.test({
  name: "stop guard: 8 parallel subagent dispatches (separate processes), cap 2 — rounds 1–2 block, round 3 is ignored",
  ignore: Deno.build.os === "windows",
  async fn() {
    await using home = await makeHome();
    await writeHooksJson(home.path, {
      SubagentStop: [group([cmd(echoHook({ decision: "block", reason: "keep going" }))])],
    });
    await trustAll(home.path, home.path);
    const config = await Deno.readTextFile(`${home.path}/config.toml`);
    await writeConfigToml(home.path, `[hooks]\nstop_block_cap = 2\n\n${config}`);
    const sid = sessionId("parallel-stop");
    const rounds: string[][] = [];
    for (let round = 1; round <= 3; round++) {
      const results = await Promise.all(
        Array.from(
          { length: 8 },
          (_, agent) =>
            dispatch(home.path, event("SubagentStop", { session_id: sid, agent_id: `agent-${agent}`, cwd: home.path })),
        ),
      );
      rounds.push(results.map((r) => `${r.decision}:${r.warnings.map((w) => w.code).join(",")}`));
    }
    assertEquals(rounds, [
      Array(8).fill("block:"),
      Array(8).fill("block:"),
      Array(8).fill("null:W_STOP_LOOP_CAP"),
    ]);
  },
});

Deno.test({
  name:
    "stop guard: the counter's lock path made a folder — 12 blocking Stops: 8 stand, 4 are ignored, each says the guard is unavailable",
  ignore: Deno.build.os === "windows",
  async fn() {
    await using home = await makeHome();
    await writeHooksJson(home.path, { Stop: [group([cmd(echoHook({ decision: "block", reason: "keep going" }))])] });
    await trustAll(home.path, home.path);
    // Fault injection instead of a full disk: the lock path is a folder, so the home cannot count.
    await Deno.mkdir(`${home.path}/tmp/stop_guard/.lock`, { recursive: true });
    const sid = sessionId("lock-folder");
    const seen: string[] = [];
    for (let i = 0; i < 12; i++) {
      const r = await dispatch(home.path, event("Stop", { session_id: sid, cwd: home.path }));
      const said = r.systemMessages.some((m) => m.includes("the Stop loop guard cannot count in the home"));
      seen.push(`${r.decision}:${r.warnings.map((w) => w.code).join(",")}:${said}`);
    }
    assertEquals(seen, [
      ...Array(8).fill("block:W_STOP_GUARD_UNAVAILABLE:true"),
      ...Array(4).fill("null:W_STOP_GUARD_UNAVAILABLE,W_STOP_LOOP_CAP:true"),
    ]);
  },
});

Deno.test({
  name:
    "stop guard: a frozen process holding the counter's lock — the Stop dispatch returns, its block stands, counted in the fallback",
  ignore: Deno.build.os === "windows",
  async fn() {
    await using home = await makeHome();
    await writeHooksJson(home.path, { Stop: [group([cmd(echoHook({ decision: "block", reason: "keep going" }))])] });
    await trustAll(home.path, home.path);
    const lock = `${home.path}/tmp/stop_guard/.lock`;
    await Deno.mkdir(`${home.path}/tmp/stop_guard`, { recursive: true });
    // Another process takes the lock and stops itself (SIGSTOP): it holds the lock, frozen, until killed.
    const holder = new Deno.Command(Deno.execPath(), {
      args: [
        "eval",
        `const f = Deno.openSync(${JSON.stringify(lock)}, { read: true, write: true, create: true });
         f.lockSync(true); console.log("locked"); Deno.kill(Deno.pid, "SIGSTOP");`,
      ],
      stdout: "piped",
      stderr: "null",
    }).spawn();
    try {
      const reader = holder.stdout.pipeThrough(new TextDecoderStream()).getReader();
      assertEquals((await reader.read()).value?.trim(), "locked");
      reader.releaseLock();
      // killAfterMs: were the wait unbounded, the test would end on its own, failing, not hang.
      const r = await dispatch(home.path, event("Stop", { session_id: sessionId("frozen"), cwd: home.path }), [], {
        killAfterMs: 60_000,
      });
      assertEquals(r.decision, "block");
      assertEquals(r.warnings.map((w) => w.code), ["W_STOP_GUARD_UNAVAILABLE"]);
      const line = r.systemMessages.find((m) => m.includes("Stop loop guard")) ?? "";
      assert(line.includes("stayed locked by another process") && line.includes("the loop cap still applies"), line);
    } finally {
      holder.kill("SIGKILL");
      await holder.status;
      await holder.stdout.cancel().catch(() => {});
    }
  },
});
