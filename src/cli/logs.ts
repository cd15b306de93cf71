/**
 * `mind-hooks logs [--follow] [--session ID] [--key K] [--event E] [--status S] [--since T] [--json]`: the observation log
 * (`$MIND_HOME/logs/hooks.jsonl` and its rotated files, SPEC §12) for people — a `── DAY · session ID`
 * line where the day or the session changes, then one record per hook run (local time of day, status,
 * duration, the key's tail — its event is in it —, reason) and per warning, fitted to the terminal's width (80 columns when stdout is not a terminal; what does not
 * fit goes on indented lines below, never cut) — or, with `--json`, the records as JSON lines (ISO
 * times, full keys). `--follow` keeps printing new records (across rotations) until interrupted.
 * `--key` takes a full key or any tail of one (`PreToolUse:0:0`); `--event` an event, `--status` run
 * statuses (`failed,blocked`); `--since` an ISO-8601 time or a
 * duration back from now (`10m`, `2h`, `1d`). Like grep, a filter that selects nothing says so on
 * stderr and exits 1.
 * @module
 */
import { type ParsedArgs, UsageError } from "../util/args.ts";
import { cliSettings } from "./context.ts";
import { logFiles, logPath, type LogRecord, parseLogLine } from "../log/observation.ts";
import { keyHasTail } from "../trust/hash.ts";
import { followFile, printFile } from "../util/follow.ts";
import { dirname } from "../util/paths.ts";
import { EVENT_NAMES, isEventName } from "../events/names.ts";
import { localTime, loneKeyTail } from "../review/display.ts";
import { displayPath } from "../config/problems.ts";
import { displayWidth, wrap } from "../review/text.ts";
import { sanitize } from "../util/terminal_text.ts";

/** What selects a record. */
export type LogFilter = {
  session?: string;
  key?: string;
  since?: number;
  /** Only runs whose status is one of these (`--status failed,blocked`). */
  status?: ReadonlySet<string>;
  /** Only runs of this event (`--event PreToolUse`). */
  event?: string;
};

/** The statuses a run is logged with (the dispatch result's `runs[].status`), for `--status`. */
export const RUN_STATUSES: readonly string[] = ["completed", "blocked", "failed", "skipped", "started"];

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

/**
 * True when `r` is selected by `f`. The key, status and event filters select runs only; a session
 * filter, what that session logged.
 */
export function selects(r: LogRecord, f: LogFilter): boolean {
  if (f.since !== undefined && !(Date.parse(r.timestamp) >= f.since)) return false;
  if (f.session !== undefined && r.session_id !== f.session) return false;
  if (f.key !== undefined && (r.kind !== "run" || !keyHasTail(r.key, f.key))) return false;
  if (f.status !== undefined && (r.kind !== "run" || !f.status.has(r.status))) return false;
  if (f.event !== undefined && (r.kind !== "run" || r.event !== f.event)) return false;
  return true;
}

/** How a record is shown: the OS user's home (for `~`) and the width to fit. */
export type RecordFormat = { userHome: string | null; width: number };

/**
 * One record for people: `12:00:00  failed      12 ms  repo/.mind/hooks.json:Stop:0:1  (exit 3)`,
 * wrapped to `fmt.width` (continuation lines indented); every part sanitised before it is measured.
 */
export function formatRecord(r: LogRecord, fmt: RecordFormat = { userHome: null, width: 80 }): string[] {
  // The day is on the group's line (recordGroup): a record shows its local time of day.
  const local = localTime(r.timestamp, true);
  const time = /^\d{4}-\d\d-\d\d /.test(local) ? local.slice(11) : local;
  if (r.kind === "warning") {
    const pos = r.line !== undefined ? `:${r.line}${r.column !== undefined ? `:${r.column}` : ""}` : "";
    return fitParts(
      [`${time}  warning  ${r.code} ${displayPath(r.source, fmt.userHome)}${pos}: ${r.message}`],
      fmt.width,
    );
  }
  const ms = r.duration_ms === null ? "-" : `${r.duration_ms} ms`;
  // A failure's reason names its exit code already ("exit 3"); other reasons do not.
  const exit = r.exit_code !== null && r.exit_code !== 0 && !r.reason?.startsWith("exit ")
    ? [`exit ${r.exit_code}`]
    : [];
  const reason = r.reason !== null ? [`(${r.reason})`] : [];
  const head = `${time}  ${r.status.padEnd(9)}${ms.padStart(8)}  ${loneKeyTail(r.key, fmt.userHome)}`;
  return fitParts([head, ...exit, ...reason], fmt.width);
}

/**
 * The line that opens a run of records of one day and session (`── 2026-12-01 · session s1`),
 * printed when either changes from one record to the next: a record then needs neither of its own
 * and fits 80 columns.
 */
export function recordGroup(r: LogRecord): string {
  const local = localTime(r.timestamp);
  const day = /^\d{4}-\d\d-\d\d /.test(local) ? local.slice(0, 10) : "a day unknown";
  return `── ${day} · ${r.session_id === undefined ? "no session" : `session ${r.session_id}`}`;
}

/**
 * Parts laid out two spaces apart, a part that does not fit going to the next line (indented);
 * a part longer than a line is wrapped. Each part is sanitised before it is measured.
 */
function fitParts(parts: string[], width: number): string[] {
  const w = Math.max(40, width);
  const indent = "    ";
  const lines: string[] = [];
  let line = "";
  for (const part of parts.map(sanitize)) {
    const joined = line === "" ? part : `${line}  ${part}`;
    if (displayWidth(joined) <= w) {
      line = joined;
      continue;
    }
    if (line !== "") lines.push(line);
    const wrapped = wrap(lines.length === 0 && line === "" ? part : indent + part, w, indent);
    line = wrapped.pop() ?? "";
    // Not `push(...wrapped)`: a 10 MB reason wraps to more lines than a call takes arguments.
    for (const l of wrapped) lines.push(l);
  }
  if (line !== "") lines.push(line);
  return lines;
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
  if (options.status !== undefined) {
    const wanted = String(options.status).split(",").map((s) => s.trim());
    const bad = wanted.find((s) => !RUN_STATUSES.includes(s));
    if (bad !== undefined) {
      throw new UsageError(`--status ${bad}: expected ${RUN_STATUSES.join(", ")} (or several, a,b)`);
    }
    filter.status = new Set(wanted);
  }
  if (options.event !== undefined) {
    const event = String(options.event);
    if (!isEventName(event)) throw new UsageError(`--event ${event}: not an event (${EVENT_NAMES.join(", ")})`);
    filter.event = event;
  }
  const asJson = options.json === true;
  const { home, env } = cliSettings(options);
  const fmt: RecordFormat = { userHome: env.HOME ?? env.USERPROFILE ?? null, width: terminalWidth() };
  let matched = 0;
  let group: string | null = null;
  const render = (line: string) => {
    const r = parseLogLine(line);
    if (r === null || !selects(r, filter)) return null;
    matched++;
    if (asJson) return jsonLine(r);
    const g = recordGroup(r);
    const head = g === group ? [] : fitParts([g], fmt.width);
    group = g;
    return [...head, ...formatRecord(r, fmt)];
  };
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
  const filtered = Object.keys(filter).length > 0;
  if (!any && !filtered) console.error(`no hook has run yet (${live} does not exist)`);
  else if (filtered && matched === 0) {
    // Like grep: a search that selects nothing says so and exits 1 (nothing else failed).
    const given = (["session", "key", "since", "status", "event"] as const).filter((k) => options[k] !== undefined)
      .map((k) => `--${k} ${options[k]}`).join(" ");
    console.error(
      sanitize(`no log entry matched ${given}${any ? "" : ` (no hook has run yet: ${live} does not exist)`}`),
    );
    return 1;
  }
  return 0;
}

/** The width log records are fitted to: the terminal's, else 80 columns. */
function terminalWidth(): number {
  try {
    if (Deno.stdout.isTerminal()) return Deno.consoleSize().columns;
  } catch {
    // not a console after all
  }
  return 80;
}
