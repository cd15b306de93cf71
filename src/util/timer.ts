/**
 * Timers of any length (SPEC §15: "a `timeout` of any size works"). A timer holds a signed 32-bit
 * delay: anything above 2^31 − 1 ms (24.8 days) fires at once, so `timeout = 2200000` (25 days, in
 * seconds) would kill a hook the moment it starts. Long delays are chunked here instead.
 *
 * Each chunk is an `AbortSignal.timeout`, not a `setTimeout`: in Deno 2.9 a process's (or Worker's)
 * first `setTimeout` costs 4–8 ms of CPU (its machinery is loaded then), on the path of every hook run
 * (its timeout), while `AbortSignal.timeout` costs 0.3 ms (docs/performance.md). Like a `setTimeout`,
 * it keeps the process alive while a listener waits, and no longer once the listener is removed. It cannot
 * be cleared, though: a cancelled one stays pending until its time. So each chunk is at most
 * {@link CHUNK_MS}: a long-lived process (the daemon, `serve`) cancels a 600 s hook timeout for every
 * hook it runs, and would otherwise keep each one's timer for ten minutes.
 * @module
 */

/** The longest delay one timer honours. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** The longest chunk one delay waits at a time (what a cancelled delay leaves pending). */
export const CHUNK_MS = 1000;

/** A pending delay. */
export type Delay = { promise: Promise<void>; cancel: () => void };

/**
 * Resolves after `ms` milliseconds, however large (chained timers of at most {@link MAX_TIMER_MS});
 * `Infinity` never resolves, a negative or NaN delay resolves on the next turn. `cancel` stops it
 * (the promise then never resolves) and lets the process exit.
 */
export function delay(ms: number): Delay {
  let unlisten = () => {};
  let cancelled = false;
  const promise = new Promise<void>((resolve) => {
    if (ms === Infinity) return;
    const due = performance.now() + (ms > 0 ? ms : 0);
    const wait = (chunk: number) => {
      const signal = AbortSignal.timeout(Math.min(Math.max(0, Math.ceil(chunk)), CHUNK_MS));
      signal.addEventListener("abort", arm, { once: true });
      unlisten = () => signal.removeEventListener("abort", arm);
    };
    const arm = () => {
      if (cancelled) return;
      const left = due - performance.now();
      if (left <= 0) return resolve();
      wait(left);
    };
    wait(ms > 0 ? ms : 0);
  });
  return {
    promise,
    cancel: () => {
      cancelled = true;
      unlisten();
    },
  };
}

/** `Deno.cpuUsage` (the op behind `node:process`'s `cpuUsage`, in Deno since 2.2): not in the public types. */
const cpuUsage = (Deno as { cpuUsage?: () => { user: number; system: number } }).cpuUsage;

/**
 * The CPU time this process has used, in milliseconds: the clock of the engine's work budgets
 * (untrusted matchers, `if` filters). Those budgets bound what the engine itself spends on a
 * stranger's pattern; wall time would also count every other process of a loaded machine, so a busy
 * machine would spend a budget no pattern stretched (and report cleared matchers as matched). A
 * runtime without the op falls back to wall time.
 */
export function cpuTimeMs(): number {
  if (cpuUsage === undefined) return performance.now();
  const u = cpuUsage();
  return (u.user + u.system) / 1000;
}
