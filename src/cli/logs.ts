/**
 * `mind-hooks logs [--follow] [--session ID] [--key K] [--since T] [--json]`: the observation log
 * (`$MIND_HOME/logs/hooks.jsonl` and its rotated files, SPEC §12) for people — one line per hook run
 * (time, event, status, duration, key, reason, session) and per warning — or, with `--json`, the
 * records as JSON lines. `--follow` keeps printing new records (across rotations) until interrupted.
 * `--key` takes a full key or any tail of one (`PreToolUse:0:0`); `--since` an ISO-8601 time or a
 * duration back from now (`10m`, `2h`, `1d`).
 * @module
 */
import { type ParsedArgs, UsageError } from "../util/args.ts";
import { cliSettings } from "./context.ts";
import { logFiles, logPath, type LogRecord, parseLogLine } from "../log/observation.ts";
import { keyHasTail } from "../trust/hash.ts";
import { followFile, printFile } from "../util/follow.ts";
import { dirname } from "../util/paths.ts";

/** What selects a record. */
export type LogFilter = { session?: string; key?: string; since?: number };

const UNITS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/**
 * `--since`: an ISO-8601 time (`2026-01-02`, `2026-01-02T10:00:00Z`) or a duration back from `now`
 * (`30s`, `10m`, `2h`, `1d`, `1w`), as epoch milliseconds; null when it is neither.
 */
export function parseSince(text: string, now: number): number | null {
  const d = /^(\d{1,9})([smhdw])$/.exec(text.trim());
  if (d) return now - Number(d[1]) * UNITS[d[2]];
  if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/.test(text.trim())) return null;
  const t = Date.parse(text.trim());
  return Number.isNaN(t) ? null : t;
}

/** True when `r` is selected by `f`. A key filter selects runs only; a session filter, what that session logged. */
export function selects(r: LogRecord, f: LogFilter): boolean {
  if (f.since !== undefined && !(Date.parse(r.timestamp) >= f.since)) return false;
  if (f.session !== undefined && r.session_id !== f.session) return false;
  if (f.key !== undefined && (r.kind !== "run" || !keyHasTail(r.key, f.key))) return false;
  return true;
}

/** One record as a line for people. */
export function formatRecord(r: LogRecord): string {
  const session = r.session_id !== undefined ? `  session ${r.session_id}` : "";
  if (r.kind === "warning") {
    const pos = r.line !== undefined ? `:${r.line}${r.column !== undefined ? `:${r.column}` : ""}` : "";
    return `${r.timestamp}  warning  ${r.code} ${r.source}${pos}: ${r.message}${session}`;
  }
  const ms = r.duration_ms === null ? "-" : `${r.duration_ms} ms`;
  // A failure's reason names its exit code already ("exit 3"); other reasons do not.
  const exit = r.exit_code !== null && r.exit_code !== 0 && !r.reason?.startsWith("exit ")
    ? `  exit ${r.exit_code}`
    : "";
  const reason = r.reason !== null ? `  (${r.reason})` : "";
  return `${r.timestamp}  ${r.event.padEnd(17)} ${r.status.padEnd(9)} ${
    ms.padStart(9)
  }  ${r.key}${exit}${reason}${session}`;
}

/** Characters JSON leaves raw that a terminal would act on: written as `\uXXXX`, still valid JSON. */
const RAW_UNSAFE = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** One record as a JSON line, safe for a terminal and still JSON. */
function jsonLine(r: LogRecord): string {
  return JSON.stringify(r).replace(RAW_UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

async function exists(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false;
  }
}

/**
 * Runs `read`, saying in one line when the sandbox refuses a log file: one that is a link leading
 * out of the log folder (the command may read that folder only).
 */
async function readingLogs<T>(logs: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (e) {
    if (!(e instanceof Deno.errors.NotCapable)) throw e;
    throw new UsageError(`a log file in ${logs} leads outside it (a symlink); logs reads that folder only`);
  }
}

/** Runs the command. */
export async function logsCommand({ options, positionals }: ParsedArgs): Promise<number> {
  if (positionals.length) throw new UsageError(`logs takes no arguments (got ${JSON.stringify(positionals[0])})`);
  const filter: LogFilter = {};
  for (const name of ["session", "key"] as const) {
    const v = options[name];
    if (v === undefined) continue;
    if (v === "") throw new UsageError(`--${name} must not be empty`);
    filter[name] = v as string;
  }
  if (options.since !== undefined) {
    const since = parseSince(options.since as string, Date.now());
    if (since === null) {
      throw new UsageError(
        `--since ${options.since}: expected an ISO-8601 time (2026-01-02T10:00:00Z) or a duration such as 10m, 2h, 1d`,
      );
    }
    filter.since = since;
  }
  const asJson = options.json === true;
  const render = (line: string) => {
    const r = parseLogLine(line);
    return r === null || !selects(r, filter) ? null : asJson ? jsonLine(r) : formatRecord(r);
  };
  const { home } = cliSettings(options);
  const files = logFiles(home);
  const live = logPath(home);
  // Oldest first; with --follow the live file is read (from its start) by the follower, so a record
  // appended meanwhile is neither lost nor printed twice.
  const before = options.follow ? files.filter((f) => f !== live) : files;
  const folder = dirname(live);
  let any = false;
  for (const f of before) {
    if (!(await exists(f))) continue;
    any = true;
    if (!(await readingLogs(folder, () => printFile(f, render)))) return 0;
  }
  if (options.follow) return await readingLogs(folder, () => followFile(live, render, { endWhenRemoved: false }));
  if (!any) console.error(`no hook has run yet (${live} does not exist)`);
  return 0;
}
