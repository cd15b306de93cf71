/**
 * The bounded queue every handler of this process starts through — a command's process, an MCP
 * call's, an http hook's or a prompt hook's connection (SPEC §6 r4, "Spawning"): 500
 * matching hooks under a 256-descriptor limit (macOS's default) all run, later, rather than fail
 * with "Too many open files" and lose a guard's decision.
 *
 * How many run at once comes from this process's own limits, read once, when a second handler asks
 * for a slot while one runs (every limit allows one: a dispatch of one hook, the common one, reads
 * nothing and spawns no probe): open files
 * (`RLIMIT_NOFILE`) and processes (`RLIMIT_NPROC`). Deno has no `getrlimit`: Linux's
 * `/proc/self/limits` is read, else `ulimit -n` and `ulimit -u` of a `/bin/sh` child (which
 * inherits them), else a conservative default. Each running handler holds {@link FDS_PER_HANDLER}
 * descriptors (its stdin, stdout and stderr pipes, one more while it is being spawned), and
 * {@link ENGINE_FDS} are left to the engine itself (its runtime, the files it reads and writes, an
 * MCP connection, `serve`'s streams).
 *
 * A queued handler's timeout and duration count from its start: the slot is taken before the
 * runner starts its clock. A spawn that still fails for want of descriptors or processes is tried
 * again when another handler of this process ends, as long as one is running; then it is the
 * handler's failure (named, `failClosed` applies), never another handler's.
 * @module
 */

/** Descriptors one running handler holds (three pipes, and one more while it is spawned). */
export const FDS_PER_HANDLER = 4;
/** Descriptors left to the engine itself. */
export const ENGINE_FDS = 64;
/** Processes counted per running handler (its shell and what it runs): the process limit is shared. */
const PROCS_PER_HANDLER = 4;
/** Never more at once than this, whatever the limits (SPEC §15 asks for 64 running concurrently). */
export const MAX_CONCURRENT = 256;
/** Where the limits cannot be read (Windows; a sandbox without `/bin/sh`). */
export const DEFAULT_CONCURRENT = 32;
/** How often a spawn refused for want of resources is tried again (each after another handler ended). */
const SPAWN_RETRIES = 8;

/** A process's limits; null where unknown, Infinity where unlimited. */
export type ProcessLimits = { openFiles: number | null; processes: number | null };

/** One limit's soft value as `/proc/self/limits` or `ulimit` print it: a number, or `unlimited`. */
function limitValue(text: string | undefined): number | null {
  if (text === undefined) return null;
  if (text === "unlimited") return Infinity;
  const n = Number(text);
  return Number.isSafeInteger(n) && n >= 0 ? n : null;
}

/** The soft limits of open files and processes in the text of Linux's `/proc/self/limits`. */
export function parseProcLimits(text: string): ProcessLimits {
  const soft = (name: string) => {
    const line = text.split("\n").find((l) => l.startsWith(name));
    return limitValue(line?.slice(name.length).trim().split(/\s+/)[0]);
  };
  return { openFiles: soft("Max open files"), processes: soft("Max processes") };
}

/** How many handlers may run at once under `limits`: at least 1, at most {@link MAX_CONCURRENT}. */
export function concurrencyFor(limits: ProcessLimits): number {
  if (limits.openFiles === null && limits.processes === null) return DEFAULT_CONCURRENT;
  const byFiles = limits.openFiles === null ? Infinity : Math.floor((limits.openFiles - ENGINE_FDS) / FDS_PER_HANDLER);
  const byProcs = limits.processes === null ? Infinity : Math.floor(limits.processes / PROCS_PER_HANDLER);
  return Math.max(1, Math.min(MAX_CONCURRENT, byFiles, byProcs));
}

/** This process's limits (see the module comment); never throws. */
export async function readProcessLimits(): Promise<ProcessLimits> {
  if (Deno.build.os === "windows") return { openFiles: null, processes: null };
  if (Deno.build.os === "linux") {
    try {
      const limits = parseProcLimits(await Deno.readTextFile("/proc/self/limits"));
      if (limits.openFiles !== null) return limits;
    } catch { /* no /proc, or not granted: ask the shell */ }
  }
  try {
    const out = await new Deno.Command("/bin/sh", {
      args: ["-c", "ulimit -n; ulimit -u"],
      stdin: "null",
      stdout: "piped",
      stderr: "null",
      clearEnv: true,
      env: { PATH: "/usr/bin:/bin" },
    }).output();
    const [files, procs] = new TextDecoder().decode(out.stdout).trim().split("\n").map((l) => l.trim());
    return { openFiles: limitValue(files), processes: limitValue(procs) };
  } catch {
    return { openFiles: null, processes: null };
  }
}

/** True when a spawn failed for want of descriptors or processes (EMFILE, ENFILE, EAGAIN). */
export function isResourceShortage(e: unknown): boolean {
  const text = e instanceof Error ? e.message : String(e);
  return /too many open files|resource temporarily unavailable|os error (23|24|11)\b/i.test(text);
}

/**
 * A counting semaphore handing out slots first come, first served. Its size is a number, or found
 * when first needed: the first slot is given without it (every size is at least 1).
 */
export class SpawnQueue {
  #limit: number | null;
  readonly #findLimit: () => Promise<number>;
  #found: Promise<number> | null = null;
  /** Runs asking for a slot while the size is being found (they keep their order). */
  #asking = 0;
  #running = 0;
  readonly #waiting: (() => void)[] = [];
  readonly #released: (() => void)[] = [];

  constructor(limit: number | (() => Promise<number>)) {
    this.#limit = typeof limit === "number" ? Math.max(1, limit) : null;
    this.#findLimit = typeof limit === "number" ? () => Promise.resolve(limit) : limit;
  }

  /** How many slots there are; null while not yet needed. */
  get limit(): number | null {
    return this.#limit;
  }

  /** How many are taken now. */
  get running(): number {
    return this.#running;
  }

  /** The size, found once. */
  async #size(): Promise<number> {
    if (this.#limit === null) {
      this.#asking++;
      try {
        this.#limit ??= Math.max(1, await (this.#found ??= this.#findLimit()));
      } finally {
        this.#asking--;
      }
    }
    return this.#limit;
  }

  /** Takes a slot, once one is free. */
  async #take(): Promise<void> {
    // Alone, a run needs no size: every limit allows one.
    if (this.#limit === null && this.#running === 0 && this.#asking === 0 && this.#waiting.length === 0) {
      this.#running++;
      return;
    }
    const limit = await this.#size();
    if (this.#running >= limit || this.#waiting.length > 0) {
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    } else this.#running++;
  }

  /** Runs `fn` in a slot, once one is free. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    await this.#take();
    try {
      return await fn();
    } finally {
      const next = this.#waiting.shift();
      // The slot passes straight to the next in line (the count stays); else it is freed.
      if (next) next();
      else this.#running--;
      for (const wake of this.#released.splice(0)) wake();
    }
  }

  /**
   * Runs `spawn`; when it fails for want of resources while other slots are taken, waits for one of
   * them to end and tries again (at most {@link SPAWN_RETRIES} times). Other errors, or the last
   * one, are thrown.
   */
  async spawnRetrying<T>(spawn: () => T): Promise<T> {
    for (let attempt = 0;; attempt++) {
      try {
        return spawn();
      } catch (e) {
        if (!isResourceShortage(e) || attempt >= SPAWN_RETRIES || this.#running <= 1) throw e;
        await new Promise<void>((resolve) => this.#released.push(resolve));
      }
    }
  }
}

let shared: SpawnQueue | undefined;

/** This process's one queue, sized from its limits when a second run asks for a slot. */
export function spawnQueue(): Promise<SpawnQueue> {
  shared ??= new SpawnQueue(async () => concurrencyFor(await readProcessLimits()));
  return Promise.resolve(shared);
}
