/**
 * Timers of any length (SPEC §15: "a `timeout` of any size works"). `setTimeout` holds a signed
 * 32-bit delay: anything above 2^31 − 1 ms (24.8 days) fires at once, so `timeout = 2200000` (25
 * days, in seconds) would kill a hook the moment it starts. Long delays are chunked here instead.
 * @module
 */

/** The longest delay one `setTimeout` honours. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** A pending delay. */
export type Delay = { promise: Promise<void>; cancel: () => void };

/**
 * Resolves after `ms` milliseconds, however large (chained timers of at most {@link MAX_TIMER_MS});
 * `Infinity` never resolves, a negative or NaN delay resolves on the next turn. `cancel` stops it
 * (the promise then never resolves) and lets the process exit.
 */
export function delay(ms: number): Delay {
  let id: ReturnType<typeof setTimeout> | undefined;
  let cancelled = false;
  const promise = new Promise<void>((resolve) => {
    if (ms === Infinity) return;
    const due = performance.now() + (ms > 0 ? ms : 0);
    const arm = () => {
      if (cancelled) return;
      const left = due - performance.now();
      if (left <= 0) return resolve();
      id = setTimeout(arm, Math.min(left, MAX_TIMER_MS));
    };
    id = setTimeout(arm, Math.min(ms > 0 ? ms : 0, MAX_TIMER_MS));
  });
  return {
    promise,
    cancel: () => {
      cancelled = true;
      clearTimeout(id);
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
