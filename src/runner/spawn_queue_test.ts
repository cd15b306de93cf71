/**
 * The spawn queue (SPEC §6 r4): sized from the process's limits with room left for the engine, it
 * never runs more at once than its slots, serves first come first served, and a spawn refused for
 * want of descriptors waits for another run to end instead of failing.
 */
import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import { concurrencyFor, DEFAULT_CONCURRENT, isResourceShortage, parseProcLimits, SpawnQueue } from "./spawn_queue.ts";

const PROC_LIMITS = `Limit                     Soft Limit           Hard Limit           Units
Max cpu time              unlimited            unlimited            seconds
Max processes             96362                96362                processes
Max open files            256                  1024                 files
Max locked memory         8388608              8388608              bytes
`;

Deno.test("spawn queue: the soft limits read from /proc/self/limits", () => {
  assertEquals(parseProcLimits(PROC_LIMITS), { openFiles: 256, processes: 96362 });
  assertEquals(parseProcLimits("Max open files unlimited unlimited files\n"), { openFiles: Infinity, processes: null });
  assertEquals(parseProcLimits(""), { openFiles: null, processes: null });
});

Deno.test("spawn queue: concurrency stays under the descriptor and process limits, room left for the engine", () => {
  // 256 descriptors: 64 for the engine, 4 per running handler.
  assertEquals(concurrencyFor({ openFiles: 256, processes: 96362 }), 48);
  assertEquals(concurrencyFor({ openFiles: 1_048_576, processes: 100 }), 25);
  assertEquals(concurrencyFor({ openFiles: Infinity, processes: Infinity }), 256);
  assertEquals(concurrencyFor({ openFiles: 20, processes: null }), 1);
  assertEquals(concurrencyFor({ openFiles: null, processes: null }), DEFAULT_CONCURRENT);
  // SPEC §15: 64 matching hooks still run at once under a common limit.
  assert(concurrencyFor({ openFiles: 1024, processes: 4096 }) >= 64);
});

/** Runs `n` short runs through `q` at once: what each returned, the order they started in, the most at once. */
async function runMany(q: SpawnQueue, n: number): Promise<{ done: number[]; order: number[]; peak: number }> {
  let now = 0;
  let peak = 0;
  const order: number[] = [];
  const done = await Promise.all(Array.from({ length: n }, (_, i) =>
    q.run(async () => {
      order.push(i);
      peak = Math.max(peak, ++now);
      await new Promise((r) => setTimeout(r, 1));
      now--;
      return i;
    })));
  return { done, order, peak };
}

Deno.test("spawn queue: never more at once than its slots; every run ends; order kept", async () => {
  const q = new SpawnQueue(3);
  const { done, order, peak } = await runMany(q, 20);
  assertEquals(done, Array.from({ length: 20 }, (_, i) => i));
  assertEquals(order, Array.from({ length: 20 }, (_, i) => i));
  assertEquals(peak, 3);
  assertEquals(q.running, 0);
});

Deno.test("spawn queue: a spawn refused for want of descriptors waits for another run's end, then starts", async () => {
  const q = new SpawnQueue(4);
  let free = false;
  let tries = 0;
  const holder = q.run(async () => {
    await new Promise((r) => setTimeout(r, 5));
    free = true;
  });
  const spawned = q.run(() =>
    q.spawnRetrying(() => {
      tries++;
      if (!free) throw new Error("Too many open files (os error 24)");
      return "child";
    })
  );
  assertEquals(await spawned, "child");
  await holder;
  assertEquals(tries, 2);
  // Alone, or for another error, it fails at once: the failure is that handler's own.
  const alone = new SpawnQueue(4);
  let error = "";
  await alone.run(() =>
    alone.spawnRetrying(() => {
      throw new Error("Too many open files (os error 24)");
    })
  ).catch((e) => error = e.message);
  assertEquals(error, "Too many open files (os error 24)");
  assert(isResourceShortage(new Error("Resource temporarily unavailable (os error 11)")));
  assert(!isResourceShortage(new Error("No such file or directory (os error 2)")));
});

Deno.test("spawn queue: a lone run reads no limit; a second one finds it once, and the order is kept", async () => {
  let asked = 0;
  const q = new SpawnQueue(() => {
    asked++;
    return new Promise((r) => setTimeout(() => r(2), 5));
  });
  await q.run(() => Promise.resolve("one"));
  assertEquals([asked, q.limit], [0, null]);
  const { done, order, peak } = await runMany(q, 8);
  assertEquals([done, order, peak, asked, q.limit, q.running], [
    Array.from({ length: 8 }, (_, i) => i),
    Array.from({ length: 8 }, (_, i) => i),
    2,
    1,
    2,
    0,
  ]);
});
