/**
 * The daemon's client (SPEC §13 r4): what `dispatch` runs before the command line is loaded. main.ts
 * imports this small module first; it reads the event, hands it with the process's cwd, arguments
 * and environment to the home's warm daemon (`$MIND_HOME/run/daemon.sock`) and prints its answer.
 * When no daemon answers within {@link ANSWER_MS}, or it is of another version or build, or the
 * socket is not one this user may trust, it returns null and leaves what it read and saw
 * ({@link Handoff}) for the in-process dispatch, which then starts a daemon for the next event.
 *
 * It imports nothing but deno.json: every module it loaded would be paid by every event.
 * @module
 */
import denoJson from "../../deno.json" with { type: "json" };

/** How long the client waits for the daemon to accept an event before it dispatches in-process. */
export const ANSWER_MS = 50;

/**
 * How long this client waits for the daemon: {@link ANSWER_MS}, or `MIND_HOOKS_DAEMON_WAIT_MS` (a whole
 * number of milliseconds, 1 to 60,000) for a machine so busy that the daemon cannot accept in 50 ms — and
 * for tests that must know the daemon answered, which would otherwise depend on the machine's load.
 */
export function answerMs(env: Record<string, string | undefined>): number {
  const text = env.MIND_HOOKS_DAEMON_WAIT_MS;
  const n = text !== undefined && /^\d{1,5}$/.test(text) ? Number(text) : NaN;
  return n >= 1 && n <= 60_000 ? n : ANSWER_MS;
}

/** The socket of a home's daemon, and its folder (0700; the socket 0600). */
export function socketPath(home: string): { dir: string; path: string } {
  const dir = `${home.replace(/\/+$/, "")}/run`;
  return { dir, path: `${dir}/daemon.sock` };
}

/** Why the client did not get an answer: it decides whether a daemon is started for the next event. */
export type Miss =
  /** No socket, or nothing listens on it: start one. */
  | "absent"
  /** A daemon of another version or build answered (it exits): start one. */
  | "mismatch"
  /** It did not accept in time, or was busy with another event: it runs; do not start another. */
  | "slow"
  /** It accepted, then said this event needs the sandbox Worker (a stranger's hook matched). */
  | "sandbox"
  /** The path is not a socket of this user: never used (`warning` says so in the result). */
  | "untrusted"
  /** Switched off (`MIND_HOOKS_DAEMON=off`), no home, or not on this platform. */
  | "off";

/** What the client leaves for the in-process dispatch (on `globalThis`, under {@link HANDOFF}). */
export type Handoff = {
  /** The event bytes it read from stdin. */
  stdin: Uint8Array;
  miss: Miss;
  home: string | null;
  /** The one warning about the socket (`W_DAEMON_SOCKET`), or null. */
  warning: string | null;
};

/** Where the client leaves its {@link Handoff}: the command line is a different module graph (the bundle). */
export const HANDOFF: unique symbol = Symbol.for("mind-hooks.daemon-handoff") as never;

/** A request to the daemon: one JSON line. */
export type Request =
  | {
    type: "dispatch";
    version: string;
    build: string;
    args: string[];
    cwd: string;
    env: Record<string, string>;
    stdin: string;
  }
  | { type: "stop" }
  | { type: "status" };

/** The daemon's replies: one JSON line each (`accepted` first, then the answer). */
export type Reply =
  | { type: "accepted" }
  | { type: "busy" }
  | { type: "mismatch" }
  | { type: "sandbox" }
  | { type: "answer"; stdout: string; stderr: string; code: number }
  | { type: "stopping"; pid: number }
  | { type: "status"; pid: number; version: string; build: string; uptimeMs: number; events: number; rssBytes: number };

/** The version every client and daemon compare. */
export const VERSION: string = denoJson.version;

/**
 * The build of this program: a daemon started from other files (an upgrade, a rebuilt bundle) is
 * another build even at the same version. The runtime and the dispatch bundle's identity.
 */
export function buildId(): string {
  let bundle = "";
  try {
    const s = Deno.statSync(new URL("../generated/dispatch_bundle.js", import.meta.url));
    bundle = `${s.size}:${s.mtime?.getTime() ?? 0}:${s.ino ?? 0}`;
  } catch {
    // compiled, or the bundle is not there: the executable alone names the build
  }
  return `${Deno.execPath()}|${Deno.version.deno}|${bundle}`;
}

/** The home a dispatch with these arguments uses, as `--home`/`$MIND_HOME`/`$HOME` give it; null when unclear. */
export function homeOf(args: readonly string[], env: Record<string, string | undefined>): string | null {
  let given: string | undefined;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--home") given = args[i + 1];
    else if (args[i].startsWith("--home=")) given = args[i].slice("--home=".length);
  }
  const value = given ?? env.MIND_HOME;
  // Anything the command line would refuse or resolve itself (`~`, relative): it decides, in-process.
  if (value !== undefined) return value.startsWith("/") ? value : null;
  const home = env.HOME;
  return home && home.startsWith("/") ? `${home.replace(/\/+$/, "")}/.mind` : null;
}

/** Whether the environment switches the daemon off. */
export function daemonOff(env: Record<string, string | undefined>): boolean {
  return env.MIND_HOOKS_DAEMON === "off";
}

function readAllStdin(): Uint8Array {
  let buf = new Uint8Array(64 * 1024);
  let size = 0;
  while (true) {
    if (size === buf.length) {
      const next = new Uint8Array(buf.length * 2);
      next.set(buf);
      buf = next;
    }
    const n = Deno.stdin.readSync(buf.subarray(size));
    if (n === null) break;
    size += n;
  }
  return buf.slice(0, size);
}

function writeAllSync(to: { writeSync(p: Uint8Array): number }, text: string): void {
  const bytes = new TextEncoder().encode(text);
  let off = 0;
  while (off < bytes.length) off += to.writeSync(bytes.subarray(off));
}

/** The socket's state: a socket this user owns, none at all, or something never to be used (why). */
export function socketState(path: string): "socket" | "absent" | string {
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(path);
  } catch {
    return "absent";
  }
  if (!info.isSocket) return `${path} is not a socket: the daemon is not used (remove it to let one start)`;
  const uid = Deno.uid();
  if (uid !== null && info.uid !== uid) {
    return `${path} belongs to another user (uid ${info.uid}): the daemon is not used`;
  }
  return "socket";
}

/** Reads newline-delimited JSON messages (requests or replies) from `conn`, one at a time. */
export class LineReader<T = Reply> {
  #buf = "";
  #decoder = new TextDecoder();
  /**
   * One buffer per reader, reused by each read (its reads are one after another): the daemon reads
   * every connection twice (the request, then its end), and a buffer allocated per read was ~128 KB
   * of garbage per event, which grew the daemon's memory to 158 MiB over 100,000 events.
   */
  #chunk = new Uint8Array(16 * 1024);
  constructor(private readonly conn: Deno.Conn) {}

  /** The next message, or null at the end of the connection. */
  async next(): Promise<T | null> {
    while (true) {
      const nl = this.#buf.indexOf("\n");
      if (nl !== -1) {
        const line = this.#buf.slice(0, nl);
        this.#buf = this.#buf.slice(nl + 1);
        return JSON.parse(line) as T;
      }
      const n = await this.conn.read(this.#chunk);
      if (n === null) return null;
      this.#buf += this.#decoder.decode(this.#chunk.subarray(0, n), { stream: true });
    }
  }
}

/** Writes one JSON line to `conn`. */
export async function send(conn: Deno.Conn, message: Request | Reply): Promise<void> {
  const bytes = new TextEncoder().encode(JSON.stringify(message) + "\n");
  let off = 0;
  while (off < bytes.length) off += await conn.write(bytes.subarray(off));
}

/** `promise`, or null once `ms` passed. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | null> {
  // Not a `setTimeout`: a process's first costs 4–8 ms of CPU in Deno 2.9, more than the daemon's whole
  // answer; `AbortSignal.timeout` costs 0.3 ms, and stops holding the process once its listener is gone.
  const signal = AbortSignal.timeout(ms);
  let late = () => {};
  try {
    return await Promise.race([
      promise,
      new Promise<null>((resolve) => signal.addEventListener("abort", late = () => resolve(null))),
    ]);
  } finally {
    signal.removeEventListener("abort", late);
  }
}

/**
 * Hands `dispatch ARGS` to the daemon. Returns the exit code after printing its answer, or null
 * (having left a {@link Handoff}) when the command must run in-process.
 */
export async function viaDaemon(args: string[]): Promise<number | null> {
  if (args.includes("--help") || args.includes("-h")) return null;
  const env = Deno.env.toObject();
  const home = homeOf(args, env);
  // Typed at a terminal, the in-process dispatch says what it waits for before reading.
  if (Deno.stdin.isTerminal()) return null;
  const stdin = readAllStdin();
  const handoff: Handoff = { stdin, miss: "off", home, warning: null };
  (globalThis as Record<symbol, unknown>)[HANDOFF] = handoff;
  if (daemonOff(env) || home === null || Deno.build.os === "windows") return null;
  const { path } = socketPath(home);
  const state = socketState(path);
  if (state !== "socket") {
    [handoff.miss, handoff.warning] = state === "absent" ? ["absent", null] : ["untrusted", state];
    return null;
  }
  const wait = answerMs(env);
  const started = performance.now();
  const conn = await within(Deno.connect({ transport: "unix", path }).catch(() => null), wait);
  if (conn === null) {
    // Refused at once: nothing listens (a stale socket). Not in time: it is there, but slow.
    handoff.miss = performance.now() - started < wait ? "absent" : "slow";
    return null;
  }
  try {
    return await exchange(conn, handoff, { args, env, stdin }, wait);
  } finally {
    try {
      conn.close();
    } catch {
      // already closed by the daemon
    }
  }
}

/** Sends the event and prints the answer; null (the handoff's `miss` set) when it must run in-process. */
async function exchange(
  conn: Deno.Conn,
  handoff: Handoff,
  { args, env, stdin }: { args: string[]; env: Record<string, string>; stdin: Uint8Array },
  wait: number,
): Promise<number | null> {
  const reader = new LineReader(conn);
  const request: Request = {
    type: "dispatch",
    version: VERSION,
    build: buildId(),
    args,
    cwd: Deno.cwd(),
    env,
    stdin: new TextDecoder().decode(stdin),
  };
  const first = await within(send(conn, request).then(() => reader.next()), wait).catch(() => null);
  if (first === null || first.type !== "accepted") {
    handoff.miss = first?.type === "mismatch" ? "mismatch" : first === null ? "slow" : "slow";
    return null;
  }
  const answer = await reader.next().catch(() => null);
  if (answer === null || answer.type !== "answer") {
    handoff.miss = answer?.type === "sandbox" ? "sandbox" : "slow";
    return null;
  }
  writeAllSync(Deno.stdout, answer.stdout);
  writeAllSync(Deno.stderr, answer.stderr);
  return answer.code;
}

/** The client's handoff in this process, if it ran and left one. */
export function handoff(): Handoff | undefined {
  return (globalThis as Record<symbol, unknown>)[HANDOFF] as Handoff | undefined;
}
