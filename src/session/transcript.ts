/**
 * The session transcript (§11): one append-only JSONL file per session (and per subagent) under
 * `$MIND_HOME/sessions/YYYY/MM/DD/`. Every line is a complete object with exactly `timestamp`,
 * `event`, `session_id`, `turn_id`, `actor` and `payload`.
 *
 * Writers take an exclusive `flock` on the transcript file for each write, so any number of
 * processes (the one-shot CLI, `serve`, the host itself) can append concurrently without
 * interleaving or losing lines. A line torn by a crash is isolated by writing a line break before
 * the next append. The line itself (checked, rendered, read back) is src/session/transcript_line.ts;
 * the long-lived writer of `serve` is src/session/transcript_writer.ts.
 *
 * @module
 */

import { appendWholeLines } from "../util/line_file.ts";
import { lockWithin } from "../util/file_lock.ts";
import { dirname, join } from "../util/paths.ts";
import { safeSessionSegment, sessionDateFromId } from "../util/session_id.ts";

export { sessionDateFromId };

export { TRANSCRIPT_EVENTS, type TranscriptEvent } from "./transcript_events.ts";
import { type AppendResult, buildTranscriptLine, ioError, type TranscriptEntry } from "./transcript_line.ts";

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
// Writing under the lock
// ---------------------------------------------------------------------------------------------

/** Opens (creating folders and file as needed) a transcript for locked appends. */
export function openTranscript(path: string): Deno.FsFile {
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
 * session is created under a lock on `sessions/.create.lock`, after looking again. That lock is
 * waited for within the lock deadline (src/util/file_lock.ts); past it the file is opened as if no
 * one else were creating it (the rare midnight race is then open again, never a hang).
 */
export async function openEntryTranscript(
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
    await lockWithin(guard, true);
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
export async function appendLines(
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
 * `TranscriptWriter` (src/session/transcript_writer.ts).
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
      file = await appendLines(file, path, encoder.encode(built.value));
    } finally {
      file.close();
    }
  } catch (error) {
    return ioError(error);
  }
  return { ok: true, path };
}
