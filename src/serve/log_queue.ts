/**
 * The observation log (SPEC §12) as `serve` writes it: off the response path and coalesced. A
 * one-shot dispatch appends its lines before it prints its result; in `serve` that file work would
 * sit in every event's latency (the §15 headline), so the result goes out first and the lines follow,
 * batched per home into one append while a write is in flight.
 *
 * Discovery warnings are logged once per configuration load, not once per event: a long-lived
 * server would otherwise repeat the same warnings at every dispatch.
 * @module
 */
import type { Catalog } from "../config/discovery.ts";
import type { DispatchResult } from "../schema/result.ts";
import { appendLog, dispatchLogEntries, type LogEntry } from "../log/observation.ts";

/** The log lines of one dispatch: the warnings raised by this event, and one line per matched handler. */
export function serveLogEntries(result: DispatchResult, catalog: Catalog, sessionId: string): LogEntry[] {
  // result.warnings starts with the catalog's discovery warnings (logged at load time).
  return dispatchLogEntries(result, sessionId, result.warnings.slice(catalog.warnings.length));
}

/** The discovery warnings of a freshly loaded catalog, as log lines. */
export function catalogLogEntries(catalog: Catalog): LogEntry[] {
  return catalog.warnings.map((w): LogEntry => ({ kind: "warning", ...w }));
}

/** Per-home queues of log lines, written in the background. */
export class LogQueue {
  readonly #queues = new Map<string, LogEntry[]>();
  readonly #writing = new Map<string, Promise<void>>();

  /** Queues lines for `home`'s log; never throws, never waits. */
  add(home: string, entries: LogEntry[]): void {
    if (entries.length === 0) return;
    let q = this.#queues.get(home);
    if (!q) {
      q = [];
      this.#queues.set(home, q);
    }
    q.push(...entries);
    if (!this.#writing.has(home)) {
      const run = this.#drain(home).finally(() => this.#writing.delete(home));
      this.#writing.set(home, run);
    }
  }

  /** Settles once everything queued so far is written. */
  async flushed(): Promise<void> {
    while (this.#writing.size > 0) await Promise.all([...this.#writing.values()]);
  }

  async #drain(home: string): Promise<void> {
    // Let the response that queued these lines reach the host first.
    await new Promise((r) => setTimeout(r, 0));
    while (true) {
      const q = this.#queues.get(home);
      if (!q || q.length === 0) {
        this.#queues.delete(home);
        return;
      }
      this.#queues.set(home, []);
      await appendLog(home, q);
    }
  }
}
