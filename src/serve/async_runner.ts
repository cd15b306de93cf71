/**
 * Async command handlers inside `serve` (SPEC §7.2): run in-process, at most 8 at once per session
 * (more wait their turn, in the order started), each result delivered exactly once in each of two
 * ways — as a `hooks/asyncCompleted` notification when it completes, and in the `asyncResults` of
 * the session's next dispatch. Ending a session drops its queued jobs, kills the running ones with
 * their process groups, and discards what was not yet delivered.
 * @module
 */
import type { AsyncJob } from "../runner/types.ts";
import type { AsyncResult } from "../schema/result.ts";
import { runCommand } from "../runner/command.ts";
import { killProcessTree } from "../runner/shell.ts";
import { ASYNC_SLOTS, notStarted, pinsChanged } from "../session/async.ts";
import { asyncResultOf } from "../session/async_result.ts";

/** Longest wait at session end for killed handlers to be reaped. */
const REAP_WAIT_MS = 3000;

type Queued = { job: AsyncJob; tempDir: string; sessionId: string };

type SessionState = {
  queue: Queued[];
  active: number;
  /** Process ids of the running handlers. */
  pids: Set<number>;
  /** The running handlers' promises (session end waits for them to be reaped). */
  running: Set<Promise<unknown>>;
  /** Completed results not yet taken by a dispatch. */
  pending: AsyncResult[];
  ended: boolean;
};

/** Runs async handlers for `serve`. */
export class AsyncRunner {
  readonly #sessions = new Map<string, SessionState>();
  readonly #notify: (sessionId: string, results: AsyncResult[]) => void;

  /** @param notify sends the `hooks/asyncCompleted` notification of one completed result */
  constructor(notify: (sessionId: string, results: AsyncResult[]) => void) {
    this.#notify = notify;
  }

  #state(sessionId: string): SessionState {
    let s = this.#sessions.get(sessionId);
    if (!s) {
      s = { queue: [], active: 0, pids: new Set(), running: new Set(), pending: [], ended: false };
      this.#sessions.set(sessionId, s);
    }
    return s;
  }

  /** Queues jobs and returns at once (a dispatch never waits for its async handlers). */
  start(jobs: AsyncJob[], sessionId: string, tempDir: string): Promise<void> {
    const s = this.#state(sessionId);
    for (const job of jobs) s.queue.push({ job, tempDir, sessionId });
    this.#pump(sessionId, s);
    return Promise.resolve();
  }

  /** Takes the results waiting for the session's next dispatch (each is taken once). */
  take(sessionId: string): AsyncResult[] {
    const s = this.#sessions.get(sessionId);
    if (!s || s.pending.length === 0) return [];
    const out = s.pending.splice(0);
    this.#forgetIfIdle(sessionId, s);
    return out;
  }

  /** Handlers running or queued for a session (tests and diagnostics). */
  busy(sessionId: string): number {
    const s = this.#sessions.get(sessionId);
    return s ? s.active + s.queue.length : 0;
  }

  /** Ends a session: queued jobs dropped, running ones killed, undelivered results discarded. */
  async endSession(sessionId: string): Promise<{ killed: number }> {
    const s = this.#sessions.get(sessionId);
    if (!s) return { killed: 0 };
    this.#sessions.delete(sessionId);
    s.ended = true;
    s.queue.length = 0;
    s.pending.length = 0;
    const pids = [...s.pids];
    await Promise.all(pids.map((pid) => killProcessTree(pid).catch(() => {})));
    // Wait (briefly) until the killed handlers are reaped, so none outlives a shutdown.
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      Promise.allSettled([...s.running]),
      new Promise((r) => timer = setTimeout(r, REAP_WAIT_MS)),
    ]);
    clearTimeout(timer);
    return { killed: pids.length };
  }

  /** Every session with state (queued, running or undelivered results). */
  sessions(): string[] {
    return [...this.#sessions.keys()];
  }

  #forgetIfIdle(sessionId: string, s: SessionState): void {
    if (s.active === 0 && s.queue.length === 0 && s.pending.length === 0 && this.#sessions.get(sessionId) === s) {
      this.#sessions.delete(sessionId);
    }
  }

  #pump(sessionId: string, s: SessionState): void {
    while (!s.ended && s.active < ASYNC_SLOTS && s.queue.length > 0) {
      const next = s.queue.shift()!;
      s.active++;
      const run = this.#run(next, s);
      s.running.add(run);
      run.then((result) => {
        s.running.delete(run);
        s.active--;
        if (!s.ended && result) {
          s.pending.push(result);
          this.#notify(sessionId, [result]);
        }
        this.#pump(sessionId, s);
        this.#forgetIfIdle(sessionId, s);
      });
    }
  }

  /** Runs one job; null when the session ended meanwhile. Never throws. */
  async #run({ job, tempDir, sessionId }: Queued, s: SessionState): Promise<AsyncResult | null> {
    let pid = 0;
    try {
      // A plugin's data folder is created on demand (SPEC §2.6), for async hooks as for the others.
      if (job.env.PLUGIN_DATA) await Deno.mkdir(job.env.PLUGIN_DATA, { recursive: true }).catch(() => {});
      // Queued behind the 8 slots, it starts later than the dispatch checked it: check its pins again.
      const modified = await pinsChanged(job);
      if (s.ended) return null;
      if (modified !== null) return notStarted(job, modified);
      const raw = await runCommand({
        ...job,
        onSpawn: (p) => {
          pid = p;
          // A session that ended while this one was spawning still gets it killed.
          if (s.ended) killProcessTree(p).catch(() => {});
          else s.pids.add(p);
        },
      });
      if (s.ended) return null;
      return await asyncResultOf(job, raw, { tempDir, sessionId });
    } catch (e) {
      if (s.ended) return null;
      return {
        key: job.key,
        event: job.event,
        status: "failed",
        reason: `internal error: ${e instanceof Error ? e.message : String(e)}`,
        systemMessage: null,
        additionalContext: null,
      };
    } finally {
      s.pids.delete(pid);
    }
  }
}
