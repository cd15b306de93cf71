/**
 * The warm daemon's sandbox Workers (SPEC §13 r4, "keeps the sandbox Worker warm for strangers'
 * hooks"): an event whose matched hooks include a stranger's (a trusted project's, a plugin's) runs
 * in a Worker holding exactly the plan the launcher computes for it (src/sandbox/launch.ts
 * `dispatchPlan`), kept alive between events instead of started for each.
 *
 * Workers are keyed by their plan's whole content: a plan that differs in any grant gets its own
 * Worker, and the Worker of the same home and project whose plan changed is ended at once (its
 * permissions are no longer this run's). At most {@link WARM_BOUND} live, the least recently used
 * ended first. A Worker that fails (an uncaught error, a start that never says it is ready, an
 * answer it could not give) is ended and forgotten, and the event is handed back to an in-process
 * dispatch: never a wrong answer.
 *
 * Inside, the Worker runs the command line's module like any sandbox Worker; the daemon's command
 * there (src/cli/daemon_server.ts) answers {@link WarmRequest}s with the one `dispatch` body.
 * The process's environment and cwd are the client's while its event runs (the daemon sets them),
 * and a Worker reads both from the process, as the in-process Worker does.
 * @module
 */
import type { SandboxPlan } from "./plan.ts";
import type { Ready } from "../engine/types.ts";
import { startWorker } from "./launch.ts";

/** How many warm Workers the daemon keeps. */
export const WARM_BOUND = 4;

/** What the daemon asks its warm Worker. */
export type WarmRequest =
  /** `prepared`: what the daemon's fast path prepared for the event, which the Worker goes on from. */
  | { type: "event"; args: string[]; stdin: Uint8Array; prepared: Ready | null }
  /** The client went away mid-event: its hooks' process groups are killed. */
  | { type: "kill" };

/** What the warm Worker answers. */
export type WarmReply =
  | { type: "ready" }
  | { type: "answer"; stdout: string; stderr: string; code: number; daemonOff: boolean }
  /** It could not answer as the in-process dispatch would (a usage error, anything thrown): hand it back. */
  | { type: "failed" };

/** A warm Worker's answer to one event. */
export type WarmAnswer = { stdout: string; stderr: string; code: number; daemonOff: boolean };

type Slot = {
  key: string;
  place: string;
  worker: Worker;
  ready: Promise<boolean>;
  pending: ((r: WarmReply) => void) | null;
};

/** The content of a plan, its pool key. */
function planKey(plan: SandboxPlan): string {
  return JSON.stringify(plan);
}

/** The home and project a plan serves: one Worker each, ended when that plan changes. */
function planPlace(plan: SandboxPlan): string {
  return JSON.stringify([plan.facts.home, plan.facts.searchFrom]);
}

/** The least recently used keys to end so that `size` fits in `bound` (pure). */
export function evictions(order: readonly string[], bound: number): string[] {
  return order.slice(0, Math.max(0, order.length - bound));
}

/** The daemon's warm sandbox Workers, by plan. */
export class WarmPool {
  /** In use order, the least recent first. */
  readonly #slots = new Map<string, Slot>();
  readonly #bound: number;
  readonly #startWorker: (plan: SandboxPlan) => Worker;
  #current: Slot | null = null;

  /** `start` starts a Worker of a plan (the sandbox's; another in unit tests). */
  constructor(bound = WARM_BOUND, start: (plan: SandboxPlan) => Worker = startWorker) {
    this.#bound = bound;
    this.#startWorker = start;
  }

  /** How many Workers are warm (for status and tests). */
  get size(): number {
    return this.#slots.size;
  }

  /**
   * Runs one dispatch (`args`, `stdin`) in the Worker of `plan`, going on from what the fast path
   * `prepared` when given; null: hand it back.
   */
  async answer(
    plan: SandboxPlan,
    args: string[],
    stdin: Uint8Array,
    prepared: Ready | null = null,
  ): Promise<WarmAnswer | null> {
    const slot = this.#slot(plan);
    if (slot === null || !await slot.ready) return this.#drop(slot);
    this.#current = slot;
    try {
      const reply = await new Promise<WarmReply>((resolve) => {
        slot.pending = resolve;
        slot.worker.postMessage({ type: "event", args, stdin, prepared } satisfies WarmRequest);
      });
      if (reply.type !== "answer") return this.#drop(slot);
      const { stdout, stderr, code, daemonOff } = reply;
      return { stdout, stderr, code, daemonOff };
    } finally {
      this.#current = null;
      slot.pending = null;
    }
  }

  /** The client of the running event went away: its hooks die. */
  kill(): void {
    this.#current?.worker.postMessage({ type: "kill" } satisfies WarmRequest);
  }

  /** Ends every Worker. */
  close(): void {
    for (const slot of [...this.#slots.values()]) this.#drop(slot);
  }

  #slot(plan: SandboxPlan): Slot | null {
    const key = planKey(plan);
    const found = this.#slots.get(key);
    if (found) {
      // Most recently used: to the end of the order.
      this.#slots.delete(key);
      this.#slots.set(key, found);
      return found;
    }
    const place = planPlace(plan);
    for (const s of [...this.#slots.values()]) if (s.place === place) this.#drop(s);
    let slot: Slot;
    try {
      slot = this.#start(key, place, plan);
    } catch {
      return null;
    }
    this.#slots.set(key, slot);
    for (const k of evictions([...this.#slots.keys()], this.#bound)) this.#drop(this.#slots.get(k)!);
    return slot;
  }

  #start(key: string, place: string, plan: SandboxPlan): Slot {
    const worker = this.#startWorker(plan);
    let ready: (ok: boolean) => void = () => {};
    const slot: Slot = { key, place, worker, ready: new Promise<boolean>((r) => ready = r), pending: null };
    worker.onmessage = (e: MessageEvent<WarmReply>) => {
      if (e.data.type === "ready") ready(true);
      else slot.pending?.(e.data);
    };
    worker.onerror = (e: ErrorEvent) => {
      e.preventDefault();
      ready(false);
      slot.pending?.({ type: "failed" });
      this.#drop(slot);
    };
    // The Worker's command line waits for its plan first, as every sandbox Worker does.
    worker.postMessage({ mode: "run", plan, stdin: null });
    return slot;
  }

  #drop(slot: Slot | null): null {
    if (slot === null) return null;
    if (this.#slots.get(slot.key) === slot) this.#slots.delete(slot.key);
    slot.worker.terminate();
    return null;
  }
}
