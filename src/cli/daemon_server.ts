/**
 * The warm daemon (SPEC §13 r4): one per home, on `$MIND_HOME/run/daemon.sock` (0600, in a 0700
 * folder). Each connection brings one request (src/daemon/client.ts says the lines); a dispatch runs
 * the one `dispatch` body (src/cli/dispatch_command.ts) with the client's arguments, stdin,
 * environment and cwd, on configuration kept warm by `serve`'s cache (re-read when a file's identity
 * or content changes), and sends back what the command would print.
 *
 * Events run one at a time: the process's environment and cwd are the client's while its event runs
 * (every reader of `Deno.env` and `Deno.cwd()` — the runner, the pins' PATH, MCP tokens — sees the
 * client's, as in-process), so a second event that arrives meanwhile is answered `busy` and its client
 * dispatches in-process. An event a stranger's hook matched (the fast path's guard) runs in a warm
 * sandbox Worker of the plan the launcher would give it (src/sandbox/warm.ts); when that plan cannot
 * be made or the Worker fails, it is handed back the same way: it runs in-process, in a new sandbox
 * Worker. A client that goes away mid-event has its hooks' process groups killed at once. The daemon exits after {@link IDLE_MS} without events, on
 * `daemon stop`, when its socket is removed or replaced, when a client of another version or build
 * asks (that client starts the new one), and after answering an event whose configuration says
 * `[hooks] daemon = false`.
 * @module
 */
import type { ParsedArgs } from "../util/args.ts";
import { UsageError } from "../util/args.ts";
import { NO_HOME, resolveHome } from "../engine/settings.ts";
import { loadCatalog } from "../config/discovery.ts";
import { type Ready, sandboxNeeded } from "../engine/types.ts";
import { CatalogCache } from "../serve/config_cache.ts";
import { killRunning } from "../runner/running.ts";
import {
  buildId,
  LineReader,
  type Reply,
  type Request,
  send,
  socketPath,
  socketState,
  VERSION,
} from "../daemon/client.ts";
import { COMMANDS, parseCommand } from "./commands.ts";
import { dispatchAnswer } from "./dispatch_command.ts";
import { dispatchPlan, insideSandbox, type RunIo } from "../sandbox/launch.ts";
import { type WarmAnswer, WarmPool, type WarmReply, type WarmRequest } from "../sandbox/warm.ts";

/** Without an event for this long, the daemon exits. */
export const IDLE_MS = 15 * 60 * 1000;
/** How often the daemon looks at its socket and its idle time. */
const WATCH_MS = 1000;

/** Runs the daemon of `--home` until it exits. */
export async function daemonServeCommand({ options }: ParsedArgs, io: RunIo): Promise<number> {
  // The same command line in one of its warm sandbox Workers: it answers the daemon's events there.
  if (insideSandbox()) return await warmWorker();
  const home = resolveHome(typeof options.home === "string" ? options.home : undefined, Deno.env.toObject());
  if (home === null) throw new UsageError(NO_HOME);
  const code = await new Daemon(home).run();
  // Pending MCP connections or timers must not keep it alive.
  io.exit(code);
}

/** Sets the process's environment to exactly `env`. */
function setEnvironment(env: Record<string, string>): void {
  for (const key of Object.keys(Deno.env.toObject())) if (!Object.hasOwn(env, key)) Deno.env.delete(key);
  for (const [key, value] of Object.entries(env)) {
    try {
      Deno.env.set(key, value);
    } catch {
      // a name the platform refuses: the in-process dispatch could not have it either
    }
  }
}

class Daemon {
  readonly #home: string;
  readonly #cache = new CatalogCache();
  readonly #warm = new WarmPool();
  readonly #started = Date.now();
  readonly #build = buildId();
  readonly #own = Deno.env.toObject();
  #listener: Deno.Listener | null = null;
  #ino: number | null = null;
  #busy = false;
  #events = 0;
  #last = Date.now();

  constructor(home: string) {
    this.#home = home;
  }

  async run(): Promise<number> {
    const { dir, path } = socketPath(this.#home);
    try {
      // Not `recursive`: a home removed meanwhile is not made again (the daemon has nothing to serve).
      await Deno.mkdir(dir, { mode: 0o700 });
    } catch (e) {
      if (!(e instanceof Deno.errors.AlreadyExists)) return 1;
    }
    Deno.chmodSync(dir, 0o700);
    const state = socketState(path);
    if (state !== "socket" && state !== "absent") return 1;
    if (state === "socket" && await answers(path)) return 0;
    try {
      Deno.removeSync(path);
    } catch {
      // not there
    }
    // The daemon's own cwd: one that never goes away under it (each event brings its own).
    Deno.chdir("/");
    this.#listener = Deno.listen({ transport: "unix", path });
    Deno.chmodSync(path, 0o600);
    this.#ino = Deno.lstatSync(path).ino;
    const watch = setInterval(() => this.#watch(path), WATCH_MS);
    try {
      for await (const conn of this.#listener) this.#serve(conn).catch(() => {});
    } catch {
      // closed
    } finally {
      clearInterval(watch);
    }
    return 0;
  }

  /** Exits when the socket was removed or replaced, or after {@link IDLE_MS} without events. */
  #watch(path: string): void {
    let ino: number | null = null;
    try {
      ino = Deno.lstatSync(path).ino;
    } catch {
      // removed
    }
    if (ino === null || ino !== this.#ino) return this.#stop(false);
    if (!this.#busy && Date.now() - this.#last > IDLE_MS) this.#stop(true);
  }

  #stop(removeSocket: boolean): void {
    if (removeSocket) {
      const { path } = socketPath(this.#home);
      try {
        if (Deno.lstatSync(path).ino === this.#ino) Deno.removeSync(path);
      } catch {
        // gone already
      }
    }
    this.#warm.close();
    try {
      this.#listener?.close();
    } catch {
      // closed already
    }
  }

  async #serve(conn: Deno.Conn): Promise<void> {
    const reader = new LineReader<Request>(conn);
    try {
      const req = await reader.next();
      if (req === null) return;
      if (req.type === "stop") {
        await send(conn, { type: "stopping", pid: Deno.pid });
        return this.#stop(true);
      }
      if (req.type === "status") return await send(conn, this.#status());
      if (req.version !== VERSION || req.build !== this.#build) {
        // Another version or build asks: it dispatches in-process and starts the new daemon.
        await send(conn, { type: "mismatch" });
        return this.#stop(true);
      }
      if (this.#busy) return await send(conn, { type: "busy" });
      this.#busy = true;
      try {
        await send(conn, { type: "accepted" });
        const { reply, off } = await this.#dispatch(req, reader);
        // Served: answered here (an event handed back is the in-process dispatch's).
        if (reply.type === "answer") this.#events++;
        await send(conn, reply);
        // `[hooks] daemon = false` written since it started: this event is answered, the next runs in-process.
        if (off) this.#stop(true);
      } finally {
        this.#busy = false;
        this.#last = Date.now();
      }
    } finally {
      try {
        conn.close();
      } catch {
        // the client closed it
      }
    }
  }

  #status(): Reply {
    return {
      type: "status",
      pid: Deno.pid,
      version: VERSION,
      build: this.#build,
      uptimeMs: Date.now() - this.#started,
      events: this.#events,
      rssBytes: Deno.memoryUsage().rss,
    };
  }

  /** One event, with the client's environment and cwd; `sandbox` hands it back to an in-process dispatch. */
  async #dispatch(
    req: Request & { type: "dispatch" },
    reader: LineReader<Request>,
  ): Promise<{ reply: Reply; off: boolean }> {
    let running = true;
    // The client sends nothing more: the end of its connection means it was killed. Its hooks go too.
    reader.next().then(() => {}, () => {}).finally(() => {
      if (!running) return;
      killRunning().catch(() => {});
      this.#warm.kill();
    });
    const handBack = { reply: { type: "sandbox" } as Reply, off: false };
    try {
      Deno.chdir(req.cwd);
    } catch {
      return handBack;
    }
    setEnvironment(req.env);
    try {
      const entry = COMMANDS.get("dispatch")!;
      const parsed = parseCommand("dispatch", entry, req.args);
      if (typeof parsed.options.cwd === "string") await Deno.stat(parsed.options.cwd);
      const bytes = new TextEncoder().encode(req.stdin);
      const printed = await dispatchAnswer(parsed, {
        stdin: () => Promise.resolve(bytes),
        strangers: "refuse",
        warnings: [],
        daemon: true,
        catalog: (opts) => opts.home === null ? loadCatalog(opts) : this.#cache.get({ ...opts, home: opts.home }),
      });
      let answer: WarmAnswer | null;
      if (sandboxNeeded(printed)) {
        const { plan, prepared } = await dispatchPlan("dispatch", entry.sandbox, parsed, bytes, printed.prepared);
        answer = await this.#warm.answer(plan, req.args, bytes, prepared);
      } else answer = { ...printed, daemonOff: printed.daemonOff === true };
      if (answer === null) return handBack;
      const reply: Reply = { type: "answer", stdout: answer.stdout, stderr: answer.stderr, code: answer.code };
      return { reply, off: answer.daemonOff };
    } catch {
      // A usage error or an internal one, or a plan that cannot be made: the in-process dispatch says
      // it exactly as it would.
      return handBack;
    } finally {
      running = false;
      setEnvironment(this.#own);
      Deno.chdir("/");
    }
  }
}

/** Whether a daemon answers on `path` (within a second). */
async function answers(path: string): Promise<boolean> {
  try {
    const conn = await Deno.connect({ transport: "unix", path });
    try {
      await send(conn, { type: "status" });
      const timer = new Promise<null>((r) => setTimeout(() => r(null), 1000));
      const reply = await Promise.race([new LineReader<Reply>(conn).next(), timer]);
      return reply?.type === "status";
    } finally {
      conn.close();
    }
  } catch {
    return false;
  }
}

/**
 * The daemon's warm sandbox Worker (src/sandbox/warm.ts): answers each event with the one `dispatch`
 * body, parsing strangers' files and running their hooks under this Worker's plan, with the
 * process's environment and cwd (the client's while its event runs). Never returns: the daemon ends it.
 */
async function warmWorker(): Promise<number> {
  // Its configuration kept warm with `serve`'s reload rules, as the daemon's own thread keeps the user's.
  const cache = new CatalogCache();
  const post = (m: WarmReply) => (self as unknown as { postMessage(m: unknown): void }).postMessage(m);
  self.addEventListener("message", (e) => {
    const m = (e as MessageEvent<WarmRequest>).data;
    if (m.type === "kill") killRunning().catch(() => {});
    else warmAnswer(cache, m.args, m.stdin, m.prepared).then(post);
  });
  post({ type: "ready" });
  return await new Promise<number>(() => {});
}

/**
 * One event in the warm Worker, as the in-process sandboxed dispatch answers it (going on from what the
 * daemon's fast path `prepared`, with this Worker's file hash cache); `failed`: hand it back.
 */
async function warmAnswer(
  cache: CatalogCache,
  args: string[],
  stdin: Uint8Array,
  prepared: Ready | null,
): Promise<WarmReply> {
  try {
    const parsed = parseCommand("dispatch", COMMANDS.get("dispatch")!, args);
    const printed = await dispatchAnswer(parsed, {
      stdin: () => Promise.resolve(stdin),
      warnings: [],
      daemon: true,
      catalog: (opts) => opts.home === null ? loadCatalog(opts) : cache.get({ ...opts, home: opts.home }),
      ...(prepared ? { prepared: { ...prepared, catalog: { ...prepared.catalog, pinCache: cache.pinCache } } } : {}),
    });
    if (sandboxNeeded(printed)) return { type: "failed" };
    const { stdout, stderr, code } = printed;
    return { type: "answer", stdout, stderr, code, daemonOff: printed.daemonOff === true };
  } catch {
    return { type: "failed" };
  }
}
