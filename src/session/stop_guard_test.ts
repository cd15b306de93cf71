/**
 * The Stop-loop guard under parallel subagents (SPEC §8): 8 subagents of one session block at once,
 * 4 times each, with a cap of 2. Each agent's count goes 1, 2, 3, 4 — no increment lost to another
 * agent's read-modify-write — and exactly the blocks past the cap are refused.
 */
import { assertEquals } from "../../tests/helpers/assert.ts";
import { clearStopGuard, guardPath, recordStopDispatch } from "./stop_guard.ts";

Deno.test("stop guard: 8 parallel subagents × 4 blocks, cap 2 — no lost increment, no block past the cap", async () => {
  const home = await Deno.makeTempDir({ prefix: "mind-stop-guard-" });
  try {
    const agents = Array.from({ length: 8 }, (_, i) => `SubagentStop:agent-${i}`);
    const seen = await Promise.all(agents.map(async (key) => {
      const out: { count: number; allowed: boolean }[] = [];
      for (let round = 0; round < 4; round++) out.push(await recordStopDispatch(home, "sid", key, true, 2));
      return out;
    }));
    const expected = [
      { allowed: true, count: 1 },
      { allowed: true, count: 2 },
      { allowed: false, count: 3 },
      { allowed: false, count: 4 },
    ];
    assertEquals(seen, agents.map(() => expected));
    assertEquals(
      JSON.parse(await Deno.readTextFile(guardPath(home, "sid"))),
      Object.fromEntries(agents.map((a) => [a, 4])),
    );

    // A dispatch that does not block resets that agent's count only; session end drops the file.
    assertEquals(await recordStopDispatch(home, "sid", agents[0], false, 2), { allowed: true, count: 0 });
    assertEquals(await recordStopDispatch(home, "sid", agents[1], true, 2), { allowed: false, count: 5 });
    await clearStopGuard(home, "sid");
    assertEquals(await recordStopDispatch(home, "sid", agents[1], true, 2), { allowed: true, count: 1 });
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("stop guard: a counter named like an Object.prototype member counts from zero", async () => {
  const home = await Deno.makeTempDir({ prefix: "mind-stop-guard-" });
  try {
    assertEquals(await recordStopDispatch(home, "sid", "constructor", true, 2), { allowed: true, count: 1 });
    assertEquals(await recordStopDispatch(home, "sid", "__proto__", true, 2), { allowed: true, count: 1 });
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
