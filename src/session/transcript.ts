/**
 * The session transcript (§11): one append-only JSONL file per session (and per subagent) under
 * `$MIND_HOME/sessions/YYYY/MM/DD/`. Every line is a complete object with exactly `timestamp`,
 * `event`, `session_id`, `turn_id`, `actor` and `payload`.
 *
 * Writers take an exclusive `flock` on the transcript file for each write, so any number of
 * processes (the one-shot CLI, `serve`, the host itself) can append concurrently without
 * interleaving or losing lines. A line torn by a crash is isolated by writing a line break before
 * the next append.
 *
 * @module
 */

import { oneLine } from "../util/terminal_text.ts";
import { appendWholeLines } from "../util/line_file.ts";
import { formatValuePath, TOO_DEEP, tooDeepPath } from "../util/nesting.ts";
import { dirname, join } from "../util/paths.ts";
import { safeSessionSegment, sessionDateFromId } from "../util/session_id.ts";

export { sessionDateFromId };

import { TRANSCRIPT_EVENTS } from "./transcript_events.ts";
export { TRANSCRIPT_EVENTS, type TranscriptEvent } from "./transcript_events.ts";

const EVENT_SET: ReadonlySet<string> = new Set(TRANSCRIPT_EVENTS);

/** What a caller asks to append. `agentId` routes the line to that subagent's own file. */
export type TranscriptEntry = {
  sessionId: string;
  event: string;
  turnId?: string | null;
  actor?: string | null;
  /** Must be a JSON object; checked at run time because entries come from JSON-RPC and the CLI. */
  payload: Record<string, unknown>;
  agentId?: string | null;
};

/** Why an append did not happen: bad input (nothing written) or a file-system failure. */
export type AppendError = { kind: "invalid"; message: string } | {
  kind: "io";
  message: string;
};

/** Outcome of one append. */
export type AppendResult = { ok: true; path: string } | {
  ok: false;
  error: AppendError;
};

const encoder = new TextEncoder();

// ---------------------------------------------------------------------------------------------
// Paths
// ---------------------------------------------------------------------------------------------

/**
 * File name of a transcript. A subagent's file is `session-<sid>+agent-<agent id>.jsonl`: `+` is
 * outside the alphabet of sanitized segments, so no root session's file name can look like a
 * subagent's and no two (session, agent) pairs share a name.
 */
export function transcriptFileName(
  sessionId: string,
  agentId?: string | null,
): string {
  const base = `session-${safeSessionSegment(sessionId)}`;
  return agentId ? `${base}+agent-${safeSessionSegment(agentId)}.jsonl` : `${base}.jsonl`;
}

/** `<home>/sessions/YYYY/MM/DD` for a UTC date. */
export function dayDir(home: string, date: Date): string {
  const yyyy = String(date.getUTCFullYear()).padStart(4, "0");
  const mm = String(date.getUTCMonth() + 1).padStart(2, "0");
  const dd = String(date.getUTCDate()).padStart(2, "0");
  return join(home, "sessions", yyyy, mm, dd);
}

/**
 * Where a session's transcript lives: `<home>/sessions/YYYY/MM/DD/session-<safe id>.jsonl`.
 *
 * The date comes from a UUIDv7/ULID in the id. For an id without one, an existing transcript of that
 * id is looked up (newest day first) so a session that spans midnight keeps its file; failing that,
 * today (UTC) is used. This does not create anything.
 *
 * @param home the application home (`$MIND_HOME`)
 * @param sessionId the session id (any string; sanitized for the file name)
 * @param now the clock, for "today"; defaults to the current time
 */
export async function transcriptPath(
  home: string,
  sessionId: string,
  now?: Date,
): Promise<string> {
  return await Promise.resolve(
    resolvePathSync(home, sessionId, [transcriptFileName(sessionId)], now),
  );
}

/** Synchronous {@link transcriptPath}, for callers that cannot await (same result). */
export function transcriptPathSync(
  home: string,
  sessionId: string,
  now?: Date,
): string {
  return resolvePathSync(home, sessionId, [transcriptFileName(sessionId)], now);
}

/**
 * Where a subagent's own transcript lives: next to its parent session's file, named
 * `session-<sid>+agent-<agent id>.jsonl`. Its date is the parent's (from the parent id, else an
 * existing subagent or parent file, else today), so `SubagentStop.agent_transcript_path` is stable.
 *
 * @param home the application home
 * @param sessionId the parent (root) session id
 * @param agentId the subagent's id (`agent_id` of the hook input)
 * @param now the clock, for "today"
 */
export async function subagentTranscriptPath(
  home: string,
  sessionId: string,
  agentId: string,
  now?: Date,
): Promise<string> {
  const names = [
    transcriptFileName(sessionId, agentId),
    transcriptFileName(sessionId),
  ];
  return await Promise.resolve(resolvePathSync(home, sessionId, names, now));
}

/** Path of `names[0]`, placed by {@link resolveDir}. */
function resolvePathSync(
  home: string,
  sessionId: string,
  names: string[],
  now?: Date,
): string {
  return join(resolveDir(home, sessionId, names, now), names[0]);
}

/**
 * Day folder for a session: the id's date, else the folder of an existing file named like one of
 * `names` (in that order of preference), else today.
 *
 * The look-up uses synchronous calls even behind the async API: it touches a handful of local
 * folders, and Deno's async directory iteration costs several times more than the work itself.
 */
function resolveDir(
  home: string,
  sessionId: string,
  names: string[],
  now?: Date,
): string {
  const date = sessionDateFromId(sessionId);
  if (date) return dayDir(home, date);
  for (const name of names) {
    const found = findExistingDir(home, name);
    if (found) return found;
  }
  return dayDir(home, now ?? new Date());
}

const YEAR = /^\d{4}$/;
const TWO_DIGITS = /^\d{2}$/;

/**
 * The newest `sessions/YYYY/MM/DD` folder holding a file called `name`, or null. Newest first
 * because a live session's file is almost always in one of the last folders; and since appends
 * follow the same rule, a given set of files always resolves to the same one.
 */
function findExistingDir(home: string, name: string): string | null {
  const root = join(home, "sessions");
  for (const year of listDirsNewestFirst(root, YEAR)) {
    for (const month of listDirsNewestFirst(join(root, year), TWO_DIGITS)) {
      for (
        const day of listDirsNewestFirst(join(root, year, month), TWO_DIGITS)
      ) {
        const dir = join(root, year, month, day);
        if (isFile(join(dir, name))) return dir;
      }
    }
  }
  return null;
}

/** Names of the sub-folders of `dir` matching `pattern`, newest (largest) first; none if unreadable. */
function listDirsNewestFirst(dir: string, pattern: RegExp): string[] {
  try {
    return [...Deno.readDirSync(dir)]
      .filter((entry) => entry.isDirectory && pattern.test(entry.name))
      .map((entry) => entry.name)
      .sort()
      .reverse();
  } catch {
    return [];
  }
}

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/**
 * Synchronous {@link subagentTranscriptPath} (same result).
 */
export function subagentTranscriptPathSync(
  home: string,
  sessionId: string,
  agentId: string,
  now?: Date,
): string {
  return resolvePathSync(home, sessionId, [
    transcriptFileName(sessionId, agentId),
    transcriptFileName(sessionId),
  ], now);
}

/** Path of an entry's file: the subagent's when `agentId` is set, else the session's. */
function entryPath(home: string, entry: TranscriptEntry, now: Date): string {
  return entry.agentId
    ? subagentTranscriptPathSync(home, entry.sessionId, entry.agentId, now)
    : transcriptPathSync(home, entry.sessionId, now);
}

// ---------------------------------------------------------------------------------------------
// Building and validating a line
// ---------------------------------------------------------------------------------------------

/**
 * Validates an entry and renders its line (with the trailing line break). Hand-written rather than
 * a zod parse because it runs on every append; the tests check its output against
 * {@link TranscriptLine}.
 *
 * @returns the line, or an `invalid` error saying what is wrong
 */
export function buildTranscriptLine(
  entry: TranscriptEntry,
  now: Date = new Date(),
): { ok: true; line: string } | { ok: false; error: AppendError } {
  const problem = entryProblem(entry);
  if (problem) {
    return { ok: false, error: { kind: "invalid", message: problem } };
  }
  let payload: string | undefined;
  try {
    payload = JSON.stringify(entry.payload);
  } catch (error) {
    return invalid(
      `payload is not serializable as JSON: ${errorMessage(error)}`,
    );
  }
  // A toJSON() may turn an object into something else (a Date becomes a string).
  if (payload === undefined || !payload.startsWith("{")) {
    return invalid("payload must be a JSON object");
  }
  // Like every other input (SPEC §15): a line this deep breaks the transcript's readers. Checked
  // once it serialized (a cycle is "not serializable", not deep).
  const deep = tooDeepPath(entry.payload);
  if (deep) return invalid(`payload ${TOO_DEEP} (at ${formatValuePath(deep)})`);
  const line = `{"timestamp":${JSON.stringify(now.toISOString())},"event":${JSON.stringify(entry.event)},` +
    `"session_id":${JSON.stringify(entry.sessionId)},"turn_id":${JSON.stringify(entry.turnId ?? null)},` +
    `"actor":${JSON.stringify(entry.actor ?? null)},"payload":${payload}}\n`;
  return { ok: true, line };
}

/** The first thing wrong with an entry (its shape comes from untyped JSON), or null. */
function entryProblem(entry: TranscriptEntry): string | null {
  if (typeof entry !== "object" || entry === null) {
    return "entry must be an object";
  }
  if (typeof entry.sessionId !== "string" || entry.sessionId === "") {
    return "sessionId must be a non-empty string";
  }
  if (typeof entry.event !== "string" || !EVENT_SET.has(entry.event)) {
    return `unknown transcript event ${JSON.stringify(entry.event)}; expected one of ${TRANSCRIPT_EVENTS.join(", ")}`;
  }
  for (
    const [field, value] of [["turnId", entry.turnId], [
      "actor",
      entry.actor,
    ]] as const
  ) {
    if (value !== undefined && value !== null && typeof value !== "string") {
      return `${field} must be a string or null`;
    }
  }
  if (
    entry.agentId !== undefined && entry.agentId !== null &&
    typeof entry.agentId !== "string"
  ) {
    return "agentId must be a string or null";
  }
  const payload: unknown = entry.payload;
  if (
    typeof payload !== "object" || payload === null || Array.isArray(payload)
  ) {
    return "payload must be a JSON object";
  }
  return null;
}

function invalid(message: string): { ok: false; error: AppendError } {
  return { ok: false, error: { kind: "invalid", message } };
}

function ioError(error: unknown): { ok: false; error: AppendError } {
  return { ok: false, error: { kind: "io", message: errorMessage(error) } };
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

// ---------------------------------------------------------------------------------------------
// Writing under the lock
// ---------------------------------------------------------------------------------------------

/** Opens (creating folders and file as needed) a transcript for locked appends. */
function openTranscript(path: string): Deno.FsFile {
  // Owner-only: transcripts hold the conversation.
  const options = { read: true, append: true, create: true, mode: 0o600 };
  try {
    return Deno.openSync(path, options);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    Deno.mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    return Deno.openSync(path, options);
  }
}

/**
 * Makes sure the transcript at `path` exists (created empty, with its folders, when missing; SPEC §5):
 * a hook that reads `transcript_path` finds a file.
 */
export function ensureTranscriptFile(path: string): void {
  openTranscript(path).close();
}

/**
 * Resolves and opens an entry's transcript.
 *
 * The first line of a session whose id carries no date is the one racy case: two processes around
 * midnight could each see no file and create one on their own day. So a missing file of such a
 * session is created under a lock on `sessions/.create.lock`, after looking again.
 */
async function openEntryTranscript(
  home: string,
  entry: TranscriptEntry,
  now: Date,
): Promise<{ file: Deno.FsFile; path: string }> {
  const path = entryPath(home, entry, now);
  if (sessionDateFromId(entry.sessionId) !== null || isFile(path)) {
    return { file: openTranscript(path), path };
  }
  const root = join(home, "sessions");
  Deno.mkdirSync(root, { recursive: true, mode: 0o700 });
  const guard = Deno.openSync(join(root, ".create.lock"), {
    write: true,
    create: true,
    mode: 0o600,
  });
  try {
    await guard.lock(true);
    const settled = entryPath(home, entry, now);
    return { file: openTranscript(settled), path: settled };
  } finally {
    guard.close(); // closing releases the lock
  }
}

/**
 * Appends `data` (whole lines) to `file`, the open handle of `path`, under the file lock; see
 * `appendWholeLines` (src/util/line_file.ts). If the file was deleted under the handle (its link count is 0), the lines
 * went to an unreachable inode, so the file is reopened — recreated — and they are written again.
 *
 * @returns the handle now open on `path` (a new one after a reopen; the old one is closed)
 */
async function appendLines(
  file: Deno.FsFile,
  path: string,
  data: Uint8Array,
): Promise<Deno.FsFile> {
  if ((await appendWholeLines(file, data)) !== 0) return file;
  file.close();
  const reopened = openTranscript(path);
  try {
    await appendWholeLines(reopened, data);
  } catch (error) {
    reopened.close();
    throw error;
  }
  return reopened;
}

/**
 * Validates an entry and appends its line (timestamp `now`, ISO with milliseconds) to the
 * session's — or with `agentId`, the subagent's — transcript, under an exclusive file lock. Invalid
 * input writes nothing. Each call opens and closes the file; long-lived processes should use
 * {@link TranscriptWriter}.
 *
 * @param home the application home
 * @param entry the event to record
 * @param now the clock (timestamp and "today"); defaults to the current time
 * @returns the transcript path, or why nothing was appended
 */
export async function appendTranscript(
  home: string,
  entry: TranscriptEntry,
  now?: Date,
): Promise<AppendResult> {
  const at = now ?? new Date();
  const built = buildTranscriptLine(entry, at);
  if (!built.ok) return built;
  let path: string;
  try {
    const opened = await openEntryTranscript(home, entry, at);
    path = opened.path;
    let file = opened.file;
    try {
      file = await appendLines(file, path, encoder.encode(built.line));
    } finally {
      file.close();
    }
  } catch (error) {
    return ioError(error);
  }
  return { ok: true, path };
}

// ---------------------------------------------------------------------------------------------
// Long-lived writer
// ---------------------------------------------------------------------------------------------

/** One queued line and the caller waiting for it. */
type Pending = { bytes: Uint8Array; done: (result: AppendResult) => void };

/** Per-file state of a {@link TranscriptWriter}. */
type Channel = {
  entry: TranscriptEntry;
  path: string | null;
  file: Deno.FsFile | null;
  queue: Pending[];
  /** The running drain, if any. */
  draining: Promise<void> | null;
};

/** Open files a writer keeps at most; idle ones beyond it are closed, least recently used first. */
const MAX_OPEN_CHANNELS = 128;

/**
 * Transcript appender for long-lived processes (`serve`).
 *
 * Keeps each transcript open, and coalesces the appends that arrive while a write is in flight into
 * one locked write: lines of one file keep their call order, and the file lock is still taken for
 * every write so other processes' appends stay whole. The promise of each append settles once its
 * line is written (or failed).
 */
export class TranscriptWriter {
  readonly #home: string;
  readonly #channels = new Map<string, Channel>();
  #closed = false;

  /** @param home the application home (`$MIND_HOME`) */
  constructor(home: string) {
    this.#home = home;
  }

  /**
   * Validates and queues one line; see {@link appendTranscript} for the rules.
   *
   * @param entry the event to record
   * @param now the clock for the timestamp (and "today" when this session's path is first resolved)
   */
  append(entry: TranscriptEntry, now?: Date): Promise<AppendResult> {
    if (this.#closed) {
      return Promise.resolve(ioError(new Error("transcript writer is closed")));
    }
    const at = now ?? new Date();
    const built = buildTranscriptLine(entry, at);
    if (!built.ok) return Promise.resolve(built);
    const channel = this.#channel(entry);
    return new Promise((done) => {
      channel.queue.push({ bytes: encoder.encode(built.line), done });
      channel.draining ??= this.#drain(channel, at);
    });
  }

  /** Waits for queued lines, then closes every file. Later appends fail with an `io` error. */
  async close(): Promise<void> {
    this.#closed = true;
    // A drain keeps going until its queue is empty, so waiting for the current ones is enough.
    await Promise.all(
      [...this.#channels.values()].map((channel) => channel.draining),
    );
    for (const channel of this.#channels.values()) closeQuietly(channel);
    this.#channels.clear();
  }

  /** The channel of an entry's file, marked most recently used. */
  #channel(entry: TranscriptEntry): Channel {
    const key = `${entry.sessionId}\0${entry.agentId ?? ""}`;
    let channel = this.#channels.get(key);
    if (channel) this.#channels.delete(key);
    else channel = { entry, path: null, file: null, queue: [], draining: null };
    this.#channels.set(key, channel); // Map order is the LRU order
    this.#evictIdle();
    return channel;
  }

  /** Closes least recently used idle files while more than {@link MAX_OPEN_CHANNELS} are kept. */
  #evictIdle(): void {
    if (this.#channels.size <= MAX_OPEN_CHANNELS) return;
    for (const [key, channel] of this.#channels) {
      if (this.#channels.size <= MAX_OPEN_CHANNELS) return;
      if (channel.draining || channel.queue.length > 0) continue;
      closeQuietly(channel);
      this.#channels.delete(key);
    }
  }

  /** Writes queued lines, a whole batch per lock, until the queue is empty. */
  async #drain(channel: Channel, now: Date): Promise<void> {
    try {
      while (channel.queue.length > 0) {
        const batch = channel.queue.splice(0);
        settle(batch, await this.#writeBatch(channel, batch, now));
      }
    } finally {
      channel.draining = null;
    }
  }

  async #writeBatch(
    channel: Channel,
    batch: Pending[],
    now: Date,
  ): Promise<AppendResult> {
    try {
      if (channel.path === null) {
        const opened = await openEntryTranscript(
          this.#home,
          channel.entry,
          now,
        );
        [channel.file, channel.path] = [opened.file, opened.path];
      }
      // After an error the handle was dropped; a session keeps the path it first resolved to.
      channel.file ??= openTranscript(channel.path);
      channel.file = await appendLines(
        channel.file,
        channel.path,
        concatBytes(batch),
      );
      return { ok: true, path: channel.path };
    } catch (error) {
      // Drop the handle: the next batch reopens, which recovers from a moved or remounted folder.
      closeQuietly(channel);
      return ioError(error);
    }
  }
}

function settle(batch: Pending[], result: AppendResult): void {
  for (const pending of batch) pending.done(result);
}

function concatBytes(batch: Pending[]): Uint8Array {
  if (batch.length === 1) return batch[0].bytes;
  let length = 0;
  for (const pending of batch) length += pending.bytes.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const pending of batch) {
    out.set(pending.bytes, offset);
    offset += pending.bytes.length;
  }
  return out;
}

function closeQuietly(channel: Channel): void {
  try {
    channel.file?.close();
  } catch {
    // Already closed; nothing to release.
  }
  channel.file = null;
}

// ---------------------------------------------------------------------------------------------
// Rendering for people
// ---------------------------------------------------------------------------------------------

/** Longest payload summary shown by {@link renderTranscriptLine}. */
const SUMMARY_MAX = 200;

/**
 * Renders one transcript line for people: `10:20:30.123  user  message.created  hello` (UTC time,
 * actor or `-`, event, a one-line payload summary). A line that is not a valid transcript object — a
 * torn line from a crash — becomes a `[torn line skipped: …]` marker; an empty line stays empty.
 *
 * @param line one line of a transcript file, without its line break
 */
export function renderTranscriptLine(line: string): string {
  if (line.trim() === "") return "";
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return tornMarker(line);
  }
  if (!isTranscriptObject(parsed)) return tornMarker(line);
  const { timestamp, actor, event, payload } = parsed;
  const time = timestamp.slice(11, 23);
  return `${time}  ${actor ?? "-"}  ${event}  ${summarize(payload)}`.trimEnd();
}

const LINE_KEYS = ["timestamp", "event", "session_id", "turn_id", "actor", "payload"];

/** The shape check of a line, by hand: rendering must not load zod (the schema lives in transcript_schema.ts). */
function isTranscriptObject(v: unknown): v is {
  timestamp: string;
  event: string;
  actor: string | null;
  payload: Record<string, unknown>;
} {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return false;
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  return keys.length === LINE_KEYS.length && LINE_KEYS.every((k) => Object.hasOwn(o, k)) &&
    typeof o.timestamp === "string" && typeof o.event === "string" && EVENT_SET.has(o.event) &&
    typeof o.session_id === "string" && (o.turn_id === null || typeof o.turn_id === "string") &&
    (o.actor === null || typeof o.actor === "string") &&
    o.payload !== null && typeof o.payload === "object" && !Array.isArray(o.payload);
}

function tornMarker(line: string): string {
  return `[torn line skipped: ${oneLine(line, 60)}]`;
}

/** The payload's text (`content`, `text` or `message`) if it has one, else its compact JSON. */
function summarize(payload: Record<string, unknown>): string {
  for (const key of ["content", "text", "message"]) {
    if (typeof payload[key] === "string") {
      return oneLine(payload[key], SUMMARY_MAX);
    }
  }
  const json = JSON.stringify(payload);
  return json === "{}" ? "" : oneLine(json, SUMMARY_MAX);
}
