/**
 * `mind-hooks daemon start|stop|status [--json]` (SPEC §13 r4), and the start of a daemon in the
 * background by a dispatch that ran in-process. The daemon itself is src/cli/daemon_server.ts; the
 * client dispatch uses, src/daemon/client.ts.
 * @module
 */
import { type ParsedArgs, UsageError } from "../util/args.ts";
import { NO_HOME, resolveHome } from "../engine/settings.ts";
import { selfCommand } from "../session/async.ts";
import { isVisibleFile, sessionInvocation } from "../runner/shell.ts";
import { daemonOff, LineReader, type Reply, send, socketPath, socketState } from "../daemon/client.ts";

/** How long `daemon start` waits for the new daemon to answer. */
const START_WAIT_MS = 10_000;

/** One request to the home's daemon and its reply; null when none answers. */
export async function ask(home: string, request: { type: "stop" } | { type: "status" }): Promise<Reply | null> {
  const { path } = socketPath(home);
  if (socketState(path) !== "socket") return null;
  let conn: Deno.Conn;
  try {
    conn = await Deno.connect({ transport: "unix", path });
  } catch {
    return null;
  }
  try {
    await send(conn, request);
    return await new LineReader(conn).next();
  } catch {
    return null;
  } finally {
    conn.close();
  }
}

/**
 * Starts the home's daemon, detached: it outlives this process and its start is on no event's path.
 * Returns at once; a daemon that finds another one answering exits.
 */
export function spawnDaemon(home: string): void {
  const [program, ...args] = selfCommand();
  // A session of its own, without a fork of this process (src/runner/shell.ts).
  const inv = sessionInvocation(
    { program, args: [...args, "__daemon", "--home", home], detached: true, windowsRawArguments: false },
    isVisibleFile,
  );
  const child = new Deno.Command(inv.program, {
    args: inv.args,
    stdin: "null",
    stdout: "null",
    stderr: "null",
    detached: inv.detached,
  }).spawn();
  child.unref();
}

/** After an in-process dispatch: a daemon for the next event, unless the environment says never. */
export function startInBackground(home: string, _options: Record<string, unknown>): void {
  if (daemonOff(Deno.env.toObject()) || Deno.build.os === "windows") return;
  try {
    spawnDaemon(home);
  } catch {
    // Not started: the next event runs in-process again and tries once more.
  }
}

/** The running daemon's status, or null. */
async function status(home: string): Promise<(Reply & { type: "status" }) | null> {
  const r = await ask(home, { type: "status" });
  return r?.type === "status" ? r : null;
}

/** Runs `daemon start|stop|status`. */
export async function daemonCommand({ options, positionals }: ParsedArgs): Promise<number> {
  const [action, ...rest] = positionals;
  if (rest.length) throw new UsageError(`daemon ${action} takes no more arguments (got ${JSON.stringify(rest[0])})`);
  if (Deno.build.os === "windows") {
    throw new UsageError("the daemon needs a Unix socket, not available here on Windows: dispatch runs in-process");
  }
  const home = resolveHome(typeof options.home === "string" ? options.home : undefined, Deno.env.toObject());
  if (home === null) throw new UsageError(NO_HOME);
  if (action === "status") return await printStatus(home, options.json === true);
  if (action === "stop") {
    const r = await ask(home, { type: "stop" });
    console.log(r?.type === "stopping" ? `mind-hooks daemon stopped (pid ${r.pid})` : "no mind-hooks daemon runs");
    return 0;
  }
  return await start(home, options.json === true);
}

async function start(home: string, json: boolean): Promise<number> {
  const { path } = socketPath(home);
  const state = socketState(path);
  if (state !== "socket" && state !== "absent") throw new UsageError(state);
  let s = await status(home);
  if (!s) {
    spawnDaemon(home);
    const until = Date.now() + START_WAIT_MS;
    while (!s && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 25));
      s = await status(home);
    }
  }
  if (!s) throw new UsageError(`the daemon did not answer within ${START_WAIT_MS / 1000} s`);
  console.log(json ? JSON.stringify(statusJson(s)) : `mind-hooks daemon runs (pid ${s.pid}, ${path})`);
  return 0;
}

function statusJson(s: Reply & { type: "status" }) {
  return { pid: s.pid, version: s.version, uptimeMs: s.uptimeMs, events: s.events, rssBytes: s.rssBytes };
}

async function printStatus(home: string, json: boolean): Promise<number> {
  const s = await status(home);
  if (!s) {
    console.log(json ? JSON.stringify({ running: false }) : "no mind-hooks daemon runs");
    return 1;
  }
  if (json) {
    console.log(JSON.stringify({ running: true, ...statusJson(s) }));
    return 0;
  }
  const mib = (s.rssBytes / 1024 / 1024).toFixed(1);
  const up = Math.round(s.uptimeMs / 1000);
  console.log(`mind-hooks daemon ${s.version}: pid ${s.pid}, up ${up} s, ${s.events} events, ${mib} MiB resident`);
  return 0;
}
