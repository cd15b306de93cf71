/**
 * The command handlers this process is running now, so that the engine can take them down with it
 * (SPEC §7.1: a handler is killed with its whole process group). Handlers are started in their own
 * session (src/runner/shell.ts), so a signal to the engine never reaches them: without this, a
 * `dispatch` ended by SIGTERM or Ctrl-C would leave a hung hook running on its own, and a `serve`
 * shut down by its host would wait for every running hook's full timeout.
 *
 * `dispatch` kills them on SIGTERM/SIGINT before it exits (src/cli/dispatch_command.ts); `serve` kills them
 * when its shutdown grace runs out (src/serve/server.ts).
 * @module
 */
import { killProcessTree } from "./shell.ts";

/** Process ids (POSIX: process groups) of the handlers running now. */
const running = new Set<number>();

/** Records a started handler; the returned function forgets it (call it once the run is over). */
export function trackRunning(pid: number): () => void {
  running.add(pid);
  return () => running.delete(pid);
}

/** How many handlers are running now. */
export function runningCount(): number {
  return running.size;
}

/** Set once the process is ending on a signal: what its killed handlers gave is never read. */
let ending = false;

/** Resolves at once, or never when the process is ending: a run killed on the way out stops there. */
export function unlessEnding(): Promise<void> {
  return ending ? new Promise<void>(() => {}) : Promise.resolve();
}

/**
 * Kills every running handler with its process group (SIGTERM, then SIGKILL after 1 s for what is
 * left) and resolves once each kill is done. Returns how many there were. Never throws.
 *
 * With `ending` (the process exits next, on a signal), the killed runs are never read: the dispatch
 * they belong to prints no half result before the process is gone, whichever finishes first.
 */
export async function killRunning(opts: { ending?: boolean } = {}): Promise<number> {
  if (opts.ending) ending = true;
  const pids = [...running];
  await Promise.all(pids.map((pid) => killProcessTree(pid).catch(() => {})));
  return pids.length;
}

/** The signals that end the engine: SIGTERM and SIGINT (Windows: SIGINT and SIGBREAK). */
export function terminationSignals(os: typeof Deno.build.os = Deno.build.os): Deno.Signal[] {
  return os === "windows" ? ["SIGINT", "SIGBREAK"] : ["SIGTERM", "SIGINT"];
}

/** The conventional exit code of a process ended by `signal` (128 + its number). */
export function signalExitCode(signal: Deno.Signal): number {
  return signal === "SIGINT" ? 130 : signal === "SIGBREAK" ? 149 : 143;
}

/**
 * Calls `handler` with each termination signal the process receives; returns a function that
 * removes the listeners. While they are installed, a signal no longer ends the process by itself:
 * `handler` must.
 */
export function onTermination(handler: (signal: Deno.Signal) => void): () => void {
  const listeners = terminationSignals().map((signal) => {
    const listener = () => handler(signal);
    Deno.addSignalListener(signal, listener);
    return [signal, listener] as const;
  });
  return () => {
    for (const [signal, listener] of listeners) Deno.removeSignalListener(signal, listener);
  };
}
