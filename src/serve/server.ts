/**
 * `mind-hooks serve` (SPEC §13): JSON-RPC 2.0 over a line stream, for hosts that keep the engine
 * running. Methods:
 *
 * - `dispatch` — params: the hook input object, plus optional `options` (home, cwd, profile,
 *   config[], hooksFile[], requirements, tempDir, dangerouslyBypassHookTrust) → §9's result.
 * - `transcript/append` — params `{session_id, event, turn_id?, actor?, payload, agent_id?}` →
 *   `{path}` (§11).
 * - `session/end` — params `{session_id}`: async handlers killed, spill folder deleted, Stop guard
 *   cleared (§7.2, §10) → `{killed}`.
 * - `hooks/list` — params `{options?}` → the catalog as data, the same object as `list --json`.
 * - `shutdown` — waits for the requests in flight (their running hooks at most
 *   {@link SHUTDOWN_GRACE_MS}, then they are killed), ends every session seen, closes the MCP pool,
 *   replies, and the process exits 0.
 *
 * Engine → host notification: `hooks/asyncCompleted` `{session_id, results}`.
 *
 * Requests are handled concurrently (responses carry their ids, in completion order); a bad line
 * gets a JSON-RPC error and serving goes on; end of input is a shutdown without a reply.
 * Configuration is cached per options and re-read when a file it came from changes.
 * @module
 */
import { messageLine } from "../util/terminal_text.ts";
import { UsageError } from "../util/args.ts";
import { isObject, type JsonObject } from "../util/json.ts";
import type { Catalog } from "../config/discovery.ts";
import { verdictOf } from "../trust/verdict.ts";
import { fail } from "../util/result.ts";
import { engineDispatch } from "../engine/dispatch.ts";
import {
  configOptionsOf,
  type EngineOptions,
  type EngineSettings,
  fromRpcOptions,
  type HomeSettings,
  NO_HOME,
  resolveSettings,
  searchStart,
} from "../engine/settings.ts";
import type { DispatchResult } from "../schema/result.ts";
import { EVENTS } from "../events/registry.ts";
import { McpPool } from "../runner/mcp_pool.ts";
import { killRunning } from "../runner/running.ts";
import { delay } from "../util/timer.ts";
import { resolvedServers } from "../config/mcp_servers.ts";
import { endSession } from "../session/end.ts";
import type { TranscriptWriter } from "../session/transcript_writer.ts";
import { AsyncRunner } from "./async_runner.ts";
import { CatalogCache } from "./config_cache.ts";
import {
  errorLine,
  INTERNAL_ERROR,
  INVALID_PARAMS,
  INVALID_REQUEST,
  LineSplitter,
  METHOD_NOT_FOUND,
  notificationLine,
  parseMessage,
  resultLine,
  RpcError,
  type RpcId,
  SHUTTING_DOWN,
  type SplitLine,
} from "./jsonrpc.ts";
import { catalogLogEntries, LogQueue, serveLogEntries } from "./log_queue.ts";

/** The methods a host may call. */
export const METHODS = ["dispatch", "transcript/append", "session/end", "hooks/list", "shutdown"] as const;

/** Longest accepted line in bytes; a longer one is answered with an error and skipped, so memory stays bounded. */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;
/** Dispatches handled at once; more wait their turn (each may run up to 64 hooks of its own). */
export const MAX_CONCURRENT_DISPATCHES = 64;
/**
 * How long a shutdown (the `shutdown` request, end of input, SIGTERM/SIGINT) waits for the requests
 * in flight before it kills their running hooks: a hook's own timeout (600 s by default) would keep
 * a host waiting that wants the server gone, and hosts escalate to SIGKILL after a few seconds.
 */
export const SHUTDOWN_GRACE_MS = 5000;
/** After those kills, how long the shutdown waits for the requests to answer (SIGKILL comes at 1 s). */
const AFTER_KILL_WAIT_MS = 3000;

/** How a server is set up. */
export type ServeSetup = {
  /** The common options `serve` was started with: the defaults of every request. */
  defaults: EngineOptions;
  env: Record<string, string | undefined>;
  processCwd: string;
  /** Writes text (whole lines) to the host; called one write at a time. */
  write: (bytes: Uint8Array) => Promise<void>;
  /** The shutdown's wait for running hooks (default {@link SHUTDOWN_GRACE_MS}). */
  shutdownGraceMs?: number;
};

/** Serializes writes so that lines never interleave, coalescing lines queued during a write. */
class LineWriter {
  readonly #write: (bytes: Uint8Array) => Promise<void>;
  #queue: string[] = [];
  #flushing: Promise<void> | null = null;
  #broken = false;
  readonly #encoder = new TextEncoder();

  constructor(write: (bytes: Uint8Array) => Promise<void>) {
    this.#write = write;
  }

  send(line: string): void {
    if (this.#broken) return;
    this.#queue.push(line);
    this.#flushing ??= this.#flush();
  }

  /** Settles once everything sent so far is written. */
  async drained(): Promise<void> {
    while (this.#flushing) await this.#flushing;
  }

  async #flush(): Promise<void> {
    try {
      while (this.#queue.length > 0) {
        const text = this.#queue.join("\n") + "\n";
        this.#queue = [];
        try {
          await this.#write(this.#encoder.encode(text));
        } catch {
          // The host closed our stdout: nobody is listening any more; drop what follows.
          this.#broken = true;
          this.#queue = [];
        }
      }
    } finally {
      this.#flushing = null;
    }
  }
}

/** A counting semaphore. */
class Semaphore {
  #free: number;
  readonly #waiting: (() => void)[] = [];
  constructor(n: number) {
    this.#free = n;
  }
  async acquire(): Promise<void> {
    if (this.#free > 0) {
      this.#free--;
      return;
    }
    await new Promise<void>((r) => this.#waiting.push(r));
  }
  release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#free++;
  }
}

/** Where a session's files live: its home (async jobs, Stop guard) and temp root (spills). */
type Place = { home: string; tempDir: string };

/** The JSON-RPC hooks server. */
export class HookServer {
  readonly #setup: ServeSetup;
  readonly #out: LineWriter;
  readonly #pool = new McpPool();
  readonly #cache: CatalogCache;
  readonly #async: AsyncRunner;
  readonly #dispatchSlots = new Semaphore(MAX_CONCURRENT_DISPATCHES);
  readonly #writers = new Map<string, TranscriptWriter>();
  readonly #log = new LogQueue();
  /** Sessions seen, with every place they used: shutdown ends each of them. */
  readonly #sessions = new Map<string, Map<string, Place>>();
  /** Lines being handled (their responses not yet queued). */
  readonly #inFlight = new Set<Promise<void>>();
  /** Method calls other than shutdown in progress: shutdown waits for these. */
  readonly #work = new Set<Promise<unknown>>();
  #shuttingDown = false;
  readonly #shutdownGraceMs: number;
  #stopReading: (() => void) | null = null;
  readonly #lines = new LineSplitter(MAX_LINE_BYTES);

  /** @param setup defaults, environment and the output sink */
  constructor(setup: ServeSetup) {
    this.#setup = setup;
    this.#shutdownGraceMs = setup.shutdownGraceMs ?? SHUTDOWN_GRACE_MS;
    this.#out = new LineWriter(setup.write);
    this.#async = new AsyncRunner((sessionId, results) => {
      this.#out.send(notificationLine("hooks/asyncCompleted", { session_id: sessionId, results }));
    });
    this.#cache = new CatalogCache((catalog) => this.#onCatalogLoaded(catalog));
  }

  /** How often configuration was loaded (tests). */
  get configLoads(): number {
    return this.#cache.loads;
  }

  /** The input bytes searched for line breaks and copied so far (tests: framing is linear). */
  get framing(): { scannedBytes: number; copiedBytes: number } {
    return { scannedBytes: this.#lines.scannedBytes, copiedBytes: this.#lines.copiedBytes };
  }

  /**
   * Reads messages from `input` until end of input or a `shutdown` request; returns the exit code
   * once every response is written. End of input shuts down like `shutdown`, without a reply.
   */
  async run(input: ReadableStream<Uint8Array>): Promise<number> {
    const reader = input.getReader();
    // A shutdown ends the pending read by cancelling the reader. (Racing every read against one
    // long-lived "stopped" promise instead kept each race, and so each chunk read, alive until
    // shutdown: 100,000 events grew serve past 1 GiB.)
    this.#stopReading = () => {
      reader.cancel().catch(() => {});
    };
    // Byte-level framing, linear in the input (SPEC §15): a long line arriving in many chunks is
    // never re-searched or re-concatenated as a whole per chunk.
    const lines = this.#lines;
    const take = (batch: SplitLine[]) => {
      for (const line of batch) {
        if (this.#shuttingDown) return;
        // An endless line is answered once, as soon as it passes the limit; the rest of it is dropped.
        if (line === null) {
          this.#out.send(
            errorLine(null, new RpcError(INVALID_REQUEST, `a line longer than ${MAX_LINE_BYTES} bytes was skipped`)),
          );
        } else this.#accept(line);
      }
    };
    try {
      while (!this.#shuttingDown) {
        const chunk = await reader.read();
        if (chunk.done) break;
        take(lines.push(chunk.value));
      }
      if (!this.#shuttingDown) {
        take(lines.end());
        await this.shutdown();
      }
    } finally {
      reader.releaseLock();
    }
    await this.#waitInFlight();
    await this.#out.drained();
    return 0;
  }

  /** Handles one line in the background, tracking it until its response is sent. */
  #accept(line: string): void {
    if (line.trim() === "") return;
    const p = this.handleLine(line).catch(() => {});
    this.#inFlight.add(p);
    p.finally(() => this.#inFlight.delete(p));
  }

  async #waitInFlight(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.all([...this.#inFlight]);
  }

  /** Handles one message line; the response (if any) is queued for output. */
  async handleLine(line: string): Promise<void> {
    const msg = parseMessage(line.endsWith("\r") ? line.slice(0, -1) : line);
    if (msg.kind === "invalid") {
      this.#out.send(errorLine(msg.id, msg.error));
      return;
    }
    const id: RpcId | undefined = msg.kind === "request" ? msg.id : undefined;
    try {
      if (this.#shuttingDown && msg.method !== "shutdown") {
        throw new RpcError(SHUTTING_DOWN, "the server is shutting down");
      }
      let result: unknown;
      if (msg.method === "shutdown") {
        await this.shutdown();
        result = null;
      } else {
        const work = this.#call(msg.method, msg.params, id !== undefined);
        this.#work.add(work);
        try {
          result = await work;
        } finally {
          this.#work.delete(work);
        }
      }
      if (id !== undefined) this.#out.send(resultLine(id, result));
    } catch (e) {
      // JSON-RPC: a notification is never answered, not even with an error.
      if (id === undefined) return;
      const err = e instanceof RpcError ? e : new RpcError(INTERNAL_ERROR, `internal error: ${messageLine(e)}`);
      this.#out.send(errorLine(id, err));
    }
  }

  #call(method: string, params: unknown, isRequest: boolean): Promise<unknown> {
    switch (method) {
      case "dispatch":
        return this.#dispatch(params);
      case "transcript/append":
        return this.#transcriptAppend(params);
      case "session/end":
        return this.#sessionEnd(params);
      case "hooks/list":
        return this.#hooksList(params);
    }
    if (!isRequest) return Promise.resolve(null);
    return Promise.reject(
      new RpcError(METHOD_NOT_FOUND, `unknown method ${JSON.stringify(method)} (methods: ${METHODS.join(", ")})`),
    );
  }

  #params(params: unknown, method: string): JsonObject {
    if (params === undefined) return {};
    if (!isObject(params)) throw new RpcError(INVALID_PARAMS, `${method} params must be an object`);
    return params;
  }

  /** The settings of a request: its `options` over the serve defaults. */
  #settings(rawOptions: unknown): HomeSettings {
    const opts = fromRpcOptions(rawOptions, this.#setup.defaults);
    if (!opts.ok) throw new RpcError(INVALID_PARAMS, opts.error);
    let settings: EngineSettings;
    try {
      settings = resolveSettings(opts.value, this.#setup.env, this.#setup.processCwd);
    } catch (e) {
      // A relative or empty home (SPEC §1 r3) is the request's own mistake.
      if (e instanceof UsageError) throw new RpcError(INVALID_PARAMS, e.message);
      throw e;
    }
    if (settings.home === null) throw new RpcError(INVALID_PARAMS, NO_HOME);
    return settings as HomeSettings;
  }

  #place(settings: HomeSettings): Place {
    return { home: settings.home, tempDir: settings.tempDir };
  }

  #remember(sessionId: string, place: Place): void {
    let places = this.#sessions.get(sessionId);
    if (!places) {
      places = new Map();
      this.#sessions.set(sessionId, places);
    }
    const key = `${place.home}\0${place.tempDir}`;
    if (!places.has(key)) places.set(key, place);
  }

  async #catalog(settings: HomeSettings, cwd: string): Promise<Catalog> {
    const loaded = await this.#cache.get(configOptionsOf(settings, cwd));
    if (!loaded.ok) throw new RpcError(INVALID_PARAMS, loaded.error);
    return loaded.value;
  }

  #onCatalogLoaded(catalog: Catalog): void {
    this.#log.add(catalog.home, catalogLogEntries(catalog));
    // Servers that no hook of a loaded configuration resolves any more (an entry changed or
    // vanished) are closed; the ones this configuration's runnable hooks resolve start opening now,
    // not at their first event.
    const keep: [string, JsonObject][] = [];
    for (const c of [...this.#cache.catalogs(), catalog]) {
      for (const def of resolvedServers(c.handlers)) keep.push([def.name, def.config]);
    }
    this.#pool.retain(keep).catch(() => {});
    if (catalog.hooksEnabled) this.#pool.prewarm(catalog, (h) => verdictOf(catalog, h).skip === null);
  }

  async #dispatch(params: unknown): Promise<DispatchResult> {
    const p = this.#params(params, "dispatch");
    const { options: rawOptions, ...event } = p;
    const settings = this.#settings(rawOptions);
    const place = this.#place(settings);
    await this.#dispatchSlots.acquire();
    try {
      const outcome = await engineDispatch(event, settings, {
        catalog: (opts) =>
          opts.home === null ? Promise.resolve(fail(NO_HOME)) : this.#cache.get({ ...opts, home: opts.home }),
        // Logged below, after the response is on its way (log_queue.ts says why).
        log: false,
        runMcp: (h, input) => this.#pool.run(h, input),
        startAsync: (jobs, sid) => this.#async.start(jobs, sid, place.tempDir),
        takeAsync: (sid) => Promise.resolve(this.#async.take(sid)),
      });
      if (!outcome.ok) throw new RpcError(INVALID_PARAMS, outcome.error);
      const result = outcome.result;
      // serve always has a home (#settings): its catalogs are a home's.
      const catalog = outcome.catalog as Catalog | null;
      // No catalog: the event was refused before any configuration was read (nothing ran, nothing to end).
      if (!catalog) return result;
      const sessionId = String(outcome.event.input.session_id);
      this.#remember(sessionId, place);
      this.#log.add(catalog.home, serveLogEntries(result, catalog, sessionId));
      // A SessionEnd dispatch ends the session (SPEC §10): its async hooks and spills go.
      if (EVENTS[outcome.event.event].endsSession) await this.#endSession(sessionId);
      return result;
    } finally {
      this.#dispatchSlots.release();
    }
  }

  async #transcriptAppend(params: unknown): Promise<{ path: string }> {
    const p = this.#params(params, "transcript/append");
    const place = this.#place(this.#settings(p.options));
    if (typeof p.session_id !== "string" || p.session_id === "") {
      throw new RpcError(INVALID_PARAMS, "transcript/append needs session_id (a non-empty string)");
    }
    if (typeof p.event !== "string") throw new RpcError(INVALID_PARAMS, "transcript/append needs event (a string)");
    for (const k of ["turn_id", "actor", "agent_id"]) {
      if (p[k] !== undefined && p[k] !== null && typeof p[k] !== "string") {
        throw new RpcError(INVALID_PARAMS, `${k} must be a string or null`);
      }
    }
    if (!isObject(p.payload)) throw new RpcError(INVALID_PARAMS, "transcript/append needs payload (an object)");
    let writer = this.#writers.get(place.home);
    if (!writer) {
      const { TranscriptWriter } = await import("../session/transcript_writer.ts");
      writer = this.#writers.get(place.home) ?? new TranscriptWriter(place.home);
      this.#writers.set(place.home, writer);
    }
    this.#remember(p.session_id, place);
    const res = await writer.append({
      sessionId: p.session_id,
      event: p.event,
      turnId: (p.turn_id as string | null | undefined) ?? null,
      actor: (p.actor as string | null | undefined) ?? null,
      payload: p.payload,
      agentId: (p.agent_id as string | null | undefined) ?? null,
    });
    if (!res.ok) {
      throw new RpcError(res.error.kind === "invalid" ? INVALID_PARAMS : INTERNAL_ERROR, res.error.message);
    }
    return { path: res.path };
  }

  async #sessionEnd(params: unknown): Promise<{ killed: number }> {
    const p = this.#params(params, "session/end");
    if (typeof p.session_id !== "string" || p.session_id === "") {
      throw new RpcError(INVALID_PARAMS, "session/end needs session_id (a non-empty string)");
    }
    // A session never seen here may still have one-shot leftovers under the requested (or default) home.
    this.#remember(p.session_id, this.#place(this.#settings(p.options)));
    return await this.#endSession(p.session_id);
  }

  /** Ends one session in every place it used: async hooks killed, spills deleted, Stop guard cleared. */
  async #endSession(sessionId: string): Promise<{ killed: number }> {
    const places = [...(this.#sessions.get(sessionId)?.values() ?? [])];
    this.#sessions.delete(sessionId);
    // In-process async hooks first, then what one-shot dispatches left on disk, in every place.
    let { killed } = await this.#async.endSession(sessionId);
    const reports = await Promise.all(places.map(({ home, tempDir }) => endSession(home, tempDir, sessionId)));
    for (const r of reports) killed += r.killedAsync;
    return { killed };
  }

  /** The catalog as data: exactly what `mind-hooks list --json` prints (one format for both). */
  async #hooksList(params: unknown): Promise<unknown> {
    const p = this.#params(params, "hooks/list");
    const settings = this.#settings(p.options);
    const catalog = await this.#catalog(settings, searchStart(settings));
    const { buildView, listData } = await import("../review/catalog_view.ts");
    return listData(await buildView(catalog));
  }

  /**
   * Shuts down: no new requests, waits for the ones in flight, ends every session seen (killing
   * async hooks), closes the MCP pool and transcript files. Idempotent.
   */
  shutdown(): Promise<void> {
    this.#shutdownDone ??= this.#shutdown();
    return this.#shutdownDone;
  }

  #shutdownDone: Promise<void> | null = null;

  /** Whether every method call in progress settles within `ms` (new ones are refused meanwhile). */
  async #workSettles(ms: number): Promise<boolean> {
    const deadline = delay(ms);
    try {
      while (this.#work.size > 0) {
        const settled = await Promise.race([
          Promise.allSettled([...this.#work]).then(() => true),
          deadline.promise.then(() => false),
        ]);
        if (!settled) return false;
      }
      return true;
    } finally {
      deadline.cancel();
    }
  }

  async #shutdown(): Promise<void> {
    this.#shuttingDown = true;
    this.#stopReading?.();
    // Requests that arrived before the shutdown are answered first; their hooks get a bounded
    // grace, then are killed with their process groups (the requests then answer with them failed).
    if (!(await this.#workSettles(this.#shutdownGraceMs))) {
      await killRunning();
      await this.#workSettles(AFTER_KILL_WAIT_MS);
    }
    const sessions = new Set([...this.#sessions.keys(), ...this.#async.sessions()]);
    await Promise.all([...sessions].map((sid) => this.#endSession(sid)));
    await this.#pool.close();
    await Promise.all([...this.#writers.values()].map((w) => w.close().catch(() => {})));
    await this.#log.flushed();
  }
}
