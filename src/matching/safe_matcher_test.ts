/**
 * The linear-time check of untrusted matchers (src/matching/safe_matcher.ts, SPEC §15 r2): one budget
 * of CPU time shared by a dispatch's matchers, counted from the engine's load, blind to other
 * processes. Dispatches with catastrophic matchers: tests/redos_test.ts.
 */
import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import { BUDGET_SPENT, SAFE_BUDGET_MS, SafeMatching } from "./safe_matcher.ts";
import { compileMatcher, type Matcher } from "./matcher.ts";

/** The compiled matcher of `text`, which these tests write valid. */
function compiled(text: string): Matcher {
  const c = compileMatcher(text);
  if (!c.ok) throw new Error(c.error);
  return c.value;
}

/**
 * `n` worker threads of this process, spinning (each for at most 2 s) until `stop()`, which returns once
 * every one has stopped: a spinning thread would go on counting in the process CPU clock of later tests.
 */
async function busyThreads(n: number): Promise<{ stop(): Promise<void> }> {
  const code = `self.onmessage = ({ data }) => {
    const flag = new Int32Array(data);
    self.postMessage("spinning");
    const until = Date.now() + 2000;
    while (Atomics.load(flag, 0) === 0 && Date.now() < until) { /* spin */ }
    self.postMessage("stopped");
  };`;
  const url = URL.createObjectURL(new Blob([code], { type: "application/javascript" }));
  const flag = new SharedArrayBuffer(4);
  const workers = Array.from({ length: n }, () => new Worker(url, { type: "module" }));
  const said = (w: Worker, word: string) =>
    new Promise<void>((done) => w.addEventListener("message", (e) => e.data === word && done()));
  const stopped = workers.map((w) => said(w, "stopped"));
  const spinning = workers.map((w) => said(w, "spinning"));
  for (const w of workers) w.postMessage(flag);
  await Promise.all(spinning);
  URL.revokeObjectURL(url);
  return {
    async stop() {
      Atomics.store(new Int32Array(flag), 0, 1);
      await Promise.all(stopped);
      for (const w of workers) w.terminate();
    },
  };
}

Deno.test("redos: the budget bounds many untrusted matchers together (unit)", async () => {
  const m = compiled;
  // The budget's clock, stepped by the test: every reading is one millisecond later, whatever the machine does
  // (a process CPU clock also counts the test runner's other threads, and failed this test on a loaded machine).
  let now = 0;
  const safe = new SafeMatching(() => now++);
  // The budget counts from the engine's load (a fixed cost, left out of it): loaded first here.
  await safe.match(m("^load$"), ["x"]);
  // Four threads of this process spin meanwhile: counted by the process CPU clock, six such threads made the old
  // assertion (under 50 ms of that clock) fail, 65–73 ms for this same work. They spend none of this budget.
  const spinners = await busyThreads(4);
  const outcomes = [];
  try {
    for (let i = 0; i < 2000; i++) {
      outcomes.push(await safe.match(m(`(.*a){${40 + (i % 50)}}x${i}`), ["a".repeat(256)]));
    }
  } finally {
    await spinners.stop();
  }
  // The work done is bounded by the budget, not by the number of matchers: once the clock passes it, no
  // pattern runs; every later one counts as matched (skipped anyway, and reported).
  assert(safe.evaluated <= SAFE_BUDGET_MS + 1, `${safe.evaluated} patterns ran for a ${SAFE_BUDGET_MS} ms budget`);
  assert(safe.evaluated >= 2, "the budget stopped the first patterns");
  assertEquals(outcomes.filter((o) => o.unchecked === BUDGET_SPENT).length, 2000 - (safe.evaluated - 1));
  assertEquals(outcomes.filter((o) => o.unchecked === null && o.matched).length, 0);
});

Deno.test("redos: the budget counts from the engine's load, so a slow import spends none of it (unit)", async () => {
  const safe = new SafeMatching();
  // Time passing before the engine is ready (a loaded machine importing it) must not count.
  const until = performance.now() + 60;
  while (performance.now() < until) { /* the import's time, simulated */ }
  const outcome = await safe.match(compiled(String.raw`^(\w|\w\w)*!`), ["a".repeat(60)]);
  assertEquals(outcome, { matched: false, unchecked: null });
});

Deno.test("redos: time other processes take (a busy machine) spends none of the budget (unit)", async () => {
  const safe = new SafeMatching();
  const m = compiled;
  assertEquals(await safe.match(m("^load$"), ["x"]), { matched: false, unchecked: null });
  // 60 ms of wall time in which this process does nothing, as when two other processes hold both cores:
  // counted in wall time, the 35 ms budget was spent and a cleared matcher was reported as matched.
  await new Promise((resolve) => setTimeout(resolve, 60));
  assertEquals(await safe.match(m(String.raw`^(\w|\w\w)*!`), ["a".repeat(60)]), { matched: false, unchecked: null });
});
