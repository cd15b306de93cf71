/**
 * The Stop-loop guard across processes (SPEC §8): 8 subagents of one session stop at once, each
 * through its own one-shot `dispatch`, and a hook blocks every stop; with `hooks.stop_block_cap = 2`
 * the first two rounds block for all 8 and the third is ignored for all 8 (`W_STOP_LOOP_CAP`). Without
 * the guard's lock the processes lost each other's counts and let blocks past the cap stand.
 */
import { assertEquals } from "./helpers/assert.ts";
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
