/** The chunked timer (src/util/timer.ts): no early firing past 2^31 ms, and never before its time. */
import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import { CHUNK_MS, delay, MAX_TIMER_MS } from "./timer.ts";

Deno.test("timer: a delay past 2^31 ms does not fire early; Infinity never fires; a delay never fires before its time", async () => {
  const long = delay(MAX_TIMER_MS + 1000);
  const short = delay(30);
  const winner = await Promise.race([long.promise.then(() => "long"), short.promise.then(() => "short")]);
  assertEquals(winner, "short");
  long.cancel();
  const never = delay(Infinity);
  const soon = delay(-1);
  assertEquals(await Promise.race([never.promise.then(() => "never"), soon.promise.then(() => "soon")]), "soon");
  never.cancel();
  const started = performance.now();
  await delay(40).promise;
  assert(performance.now() - started >= 39, "fired early");
});

Deno.test("timer: no chunk waits longer than CHUNK_MS, so a cancelled delay leaves no timer pending longer", async () => {
  const asked: number[] = [];
  const timeout = AbortSignal.timeout;
  AbortSignal.timeout = (ms: number) => {
    asked.push(ms);
    return timeout.call(AbortSignal, ms);
  };
  try {
    const long = delay(600_000);
    long.cancel();
    const started = performance.now();
    await delay(CHUNK_MS + 200).promise;
    assert(performance.now() - started >= CHUNK_MS + 199, "fired early");
  } finally {
    AbortSignal.timeout = timeout;
  }
  // The 600 s delay asked for one chunk, the other for one and (unless a busy machine woke it past its time) what
  // was left of it: never more than a chunk.
  assertEquals([asked[0], asked[1], asked.every((ms) => ms <= CHUNK_MS)], [CHUNK_MS, CHUNK_MS, true]);
});
