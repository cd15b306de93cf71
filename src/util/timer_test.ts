/** The chunked timer (src/util/timer.ts): no early firing past 2^31 ms, and never before its time. */
import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import { delay, MAX_TIMER_MS } from "./timer.ts";

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
