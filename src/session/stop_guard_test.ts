/**
 * The Stop-loop guard under parallel subagents (SPEC §8): 8 subagents of one session block at once,
 * 4 times each, with a cap of 2. Each agent's count goes 1, 2, 3, 4 — no increment lost to another
 * agent's read-modify-write — and exactly the blocks past the cap are refused.
 */
import { assertEquals } from "../../tests/helpers/assert.ts";
import { assert } from "../../tests/helpers/assert.ts";
import { clearStopGuard, fallbackGuardPaths, guardPath, recordStopDispatch } from "./stop_guard.ts";
import { join } from "../util/paths.ts";
import { evalOnSmallDisk, FULL_DISK_AVAILABLE } from "../../tests/helpers/full_disk.ts";

Deno.test("stop guard: 8 parallel subagents × 4 blocks, cap 2 — no lost increment, no block past the cap", async () => {
  const home = await Deno.makeTempDir({ prefix: "mind-stop-guard-" });
  try {
    const agents = Array.from({ length: 8 }, (_, i) => `SubagentStop:agent-${i}`);
    const seen = await Promise.all(agents.map(async (key) => {
      const out: { count: number; allowed: boolean }[] = [];
      for (let round = 0; round < 4; round++) out.push(await recordStopDispatch(home, home, "sid", key, true, 2));
      return out;
    }));
    const expected = [
      { allowed: true, count: 1, unavailable: null },
      { allowed: true, count: 2, unavailable: null },
      { allowed: false, count: 3, unavailable: null },
      { allowed: false, count: 4, unavailable: null },
    ];
    assertEquals(seen, agents.map(() => expected));
    assertEquals(
      JSON.parse(await Deno.readTextFile(guardPath(home, "sid"))),
      Object.fromEntries(agents.map((a) => [a, 4])),
    );

    // A dispatch that does not block resets that agent's count only; session end drops the file.
    assertEquals(await recordStopDispatch(home, home, "sid", agents[0], false, 2), {
      allowed: true,
      count: 0,
      unavailable: null,
    });
    assertEquals(await recordStopDispatch(home, home, "sid", agents[1], true, 2), {
      allowed: false,
      count: 5,
      unavailable: null,
    });
    await clearStopGuard(home, home, "sid");
    assertEquals(await recordStopDispatch(home, home, "sid", agents[1], true, 2), {
      allowed: true,
      count: 1,
      unavailable: null,
    });
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("stop guard: a counter named like an Object.prototype member counts from zero", async () => {
  const home = await Deno.makeTempDir({ prefix: "mind-stop-guard-" });
  try {
    assertEquals(await recordStopDispatch(home, home, "sid", "constructor", true, 2), {
      allowed: true,
      count: 1,
      unavailable: null,
    });
    assertEquals(await recordStopDispatch(home, home, "sid", "__proto__", true, 2), {
      allowed: true,
      count: 1,
      unavailable: null,
    });
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("stop guard: the lock path made a folder — 12 blocks count in the temp fallback, the cap applies, each said", async () => {
  const home = await Deno.makeTempDir({ prefix: "mind-stop-guard-" });
  const temp = await Deno.makeTempDir({ prefix: "mind-stop-temp-" });
  try {
    await Deno.mkdir(join(home, "tmp", "stop_guard", ".lock"), { recursive: true });
    const seen = [];
    for (let i = 0; i < 12; i++) seen.push(await recordStopDispatch(home, temp, "sid", "Stop", true, 8));
    assertEquals(seen.map((r) => r.allowed), [...Array(8).fill(true), ...Array(4).fill(false)]);
    assertEquals(seen.map((r) => r.count), Array.from({ length: 12 }, (_, i) => i + 1));
    assert(seen.every((r) => r.unavailable?.counted === true), "every dispatch says the home could not count");
    assert(seen[0].unavailable!.line.includes("is not a regular file"), seen[0].unavailable!.line);
    const fallback = fallbackGuardPaths(temp, "sid").file;
    assertEquals(JSON.parse(await Deno.readTextFile(fallback)), { Stop: 12 });
    // A stop that does not block resets the fallback count too; session end removes the file.
    assertEquals((await recordStopDispatch(home, temp, "sid", "Stop", false, 8)).count, 0);
    await clearStopGuard(home, temp, "sid");
    let gone = false;
    await Deno.stat(fallback).catch(() => gone = true);
    assert(gone, "session end removes the fallback counters");
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(temp, { recursive: true });
  }
});

Deno.test("stop guard: a counter file that does not parse is not read as zero — the fallback counts", async () => {
  const home = await Deno.makeTempDir({ prefix: "mind-stop-guard-" });
  const temp = await Deno.makeTempDir({ prefix: "mind-stop-temp-" });
  try {
    await Deno.mkdir(join(home, "tmp", "stop_guard"), { recursive: true });
    await Deno.writeTextFile(guardPath(home, "sid"), "{ torn");
    const r = await recordStopDispatch(home, temp, "sid", "Stop", true, 8);
    assertEquals([r.allowed, r.count, r.unavailable?.counted], [true, 1, true]);
    assert(r.unavailable!.line.includes("does not hold the counters"), r.unavailable!.line);
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(temp, { recursive: true });
  }
});

Deno.test("stop guard: home and fallback both unusable — the block stands uncounted, and says so", async () => {
  const home = await Deno.makeTempDir({ prefix: "mind-stop-guard-" });
  const temp = await Deno.makeTempDir({ prefix: "mind-stop-temp-" });
  try {
    await Deno.mkdir(join(home, "tmp", "stop_guard", ".lock"), { recursive: true });
    // The user's temp folder is a file: nothing can be made in it.
    await Deno.writeTextFile(fallbackGuardPaths(temp, "sid").root, "");
    const r = await recordStopDispatch(home, temp, "sid", "Stop", true, 8);
    assertEquals([r.allowed, r.count, r.unavailable?.counted], [true, 0, false]);
    assert(r.unavailable!.line.includes("loop cap does not apply"), r.unavailable!.line);
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(temp, { recursive: true });
  }
});

Deno.test({
  name: "stop guard: a full home disk (a filled 64 KiB tmpfs) — 12 blocks count in the temp fallback, the cap applies",
  ignore: !FULL_DISK_AVAILABLE,
  async fn() {
    const home = await Deno.makeTempDir({ prefix: "mind-stop-guard-" });
    const temp = await Deno.makeTempDir({ prefix: "mind-stop-temp-" });
    try {
      const guard = new URL("./stop_guard.ts", import.meta.url).href;
      // Inside the namespace the home is the tmpfs: made full first, then 12 blocking Stops are recorded.
      const script = `
        const { recordStopDispatch } = await import(${JSON.stringify(guard)});
        const [home, temp] = Deno.args;
        Deno.mkdirSync(home + "/tmp/stop_guard", { recursive: true });
        const f = Deno.openSync(home + "/filler", { write: true, create: true });
        try { while (true) f.writeSync(new Uint8Array(4096)); } catch { /* full */ }
        f.close();
        const out = [];
        for (let i = 0; i < 12; i++) {
          const r = await recordStopDispatch(home, temp, "sid", "Stop", true, 8);
          out.push([r.allowed, r.count, r.unavailable?.counted ?? null]);
        }
        console.log(JSON.stringify(out));`;
      const seen = JSON.parse(await evalOnSmallDisk(home, 64, script, [home, temp]));
      assertEquals(seen, Array.from({ length: 12 }, (_, i) => [i < 8, i + 1, true]));
    } finally {
      await Deno.remove(home, { recursive: true });
      await Deno.remove(temp, { recursive: true });
    }
  },
});
