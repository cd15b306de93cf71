/**
 * Recorded events (SPEC §16): with `[hooks] record = true` in the user's config.toml, every dispatched
 * event is appended as received to `$MIND_HOME/recordings/<session>.jsonl` (0600), with the decision it
 * got, so that `mind-hooks test --replay` and `review`'s `r` can dispatch it again against today's
 * configuration. The values of keys named like secrets and of keys matching a `record_redact` regex are
 * replaced by `"<masked>"`. Bounded: a session's file stops growing at 10 MiB, and the oldest sessions
 * are removed while all recordings exceed 200 MiB.
 *
 * Loaded only when recording is on: the dispatch entry pays one field test when it is off.
 * @module
 */
import { join } from "../util/paths.ts";
import { isObject, type JsonObject } from "../util/json.ts";
import { safeSessionSegment } from "../util/session_id.ts";
import { appendWholeLines } from "../util/line_file.ts";
import { MAX_NESTING } from "../util/nesting.ts";
import type { DispatchResult } from "../schema/result.ts";

/** What the user config switches on (`[hooks] record = true`, `record_redact = ["…"]`). */
export type RecordSettings = { redact: readonly string[] };

/**
 * The bounds of the recordings (bytes): per session, in all, and how often the total is checked — when a session
 * starts and each time its file grows past another `checkEvery` bytes (listing every session on each event would
 * cost the dispatch; the total may pass its bound by less than `checkEvery` per session recording meanwhile).
 */
export type RecordLimits = { perSession: number; total: number; checkEvery: number };

/** SPEC §16: at most 10 MiB per session and 200 MiB in all. */
export const RECORD_LIMITS: RecordLimits = {
  perSession: 10 * 1024 * 1024,
  total: 200 * 1024 * 1024,
  checkEvery: 256 * 1024,
};

/** What a masked value is replaced with. */
export const MASKED = "<masked>";

/** Key names that hold secrets whatever `record_redact` says (SPEC §16). */
const SECRET_KEY = /TOKEN|SECRET|PASSWORD|KEY/i;

/** One recorded event: when, the event as received (masked), and what the dispatch decided then. */
export type RecordedEvent = {
  recorded_at: string;
  event: JsonObject;
  decision: DispatchResult["decision"];
  reason: string | null;
};

/** The folder of the recordings. */
export function recordingsDir(home: string): string {
  return join(home, "recordings");
}

/**
 * A key-matching test from the user's `record_redact` patterns. A pattern that is not a regular
 * expression masks every key: a typo must not leak what it was written to hide.
 */
export function redactor(patterns: readonly string[]): (key: string) => boolean {
  const res: RegExp[] = [];
  for (const p of patterns) {
    try {
      res.push(new RegExp(p));
    } catch {
      return () => true;
    }
  }
  return (key) => SECRET_KEY.test(key) || res.some((re) => re.test(key));
}

/** `value` with the values of the keys `masks` names replaced by {@link MASKED}, at any depth up to the bound. */
export function maskSecrets(value: unknown, masks: (key: string) => boolean, depth = 0): unknown {
  if (depth > MAX_NESTING) return MASKED;
  if (Array.isArray(value)) return value.map((v) => maskSecrets(v, masks, depth + 1));
  if (!isObject(value)) return value;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(value)) {
    const masked = masks(k) ? MASKED : maskSecrets(v, masks, depth + 1);
    Object.defineProperty(out, k, { value: masked, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** The session files and their sizes, oldest first (by modification time). */
async function sessions(dir: string): Promise<{ path: string; size: number; mtime: number }[]> {
  const out: { path: string; size: number; mtime: number }[] = [];
  try {
    for await (const e of Deno.readDir(dir)) {
      if (!e.isFile || !e.name.endsWith(".jsonl")) continue;
      try {
        const info = await Deno.stat(join(dir, e.name));
        out.push({ path: join(dir, e.name), size: info.size, mtime: info.mtime?.getTime() ?? 0 });
      } catch { /* removed meanwhile */ }
    }
  } catch { /* no folder yet */ }
  return out.sort((a, b) => a.mtime - b.mtime || a.path.localeCompare(b.path));
}

/** Removes the oldest sessions but `keep` while all recordings exceed `total` bytes. */
export async function pruneRecordings(dir: string, keep: string, total: number): Promise<void> {
  const all = await sessions(dir);
  let sum = all.reduce((t, s) => t + s.size, 0);
  for (const s of all) {
    if (sum <= total) break;
    if (s.path === keep) continue;
    try {
      await Deno.remove(s.path);
      sum -= s.size;
    } catch { /* another process removed it */ }
  }
}

/**
 * Appends one dispatched event (`raw`, as the engine received it) and its decision to the session's
 * recording. Never throws and never delays the answer with a failure: recording is best effort.
 */
export async function recordEvent(
  home: string,
  settings: RecordSettings,
  raw: unknown,
  result: DispatchResult,
  limits: RecordLimits = RECORD_LIMITS,
): Promise<void> {
  try {
    if (!isObject(raw)) return;
    const session = typeof raw.session_id === "string" ? raw.session_id : "unknown";
    const entry: RecordedEvent = {
      recorded_at: new Date().toISOString(),
      event: maskSecrets(raw, redactor(settings.redact)) as JsonObject,
      decision: result.decision,
      reason: result.reason,
    };
    const line = new TextEncoder().encode(JSON.stringify(entry) + "\n");
    const dir = recordingsDir(home);
    await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
    const path = join(dir, `${safeSessionSegment(session)}.jsonl`);
    const file = await Deno.open(path, { read: true, append: true, create: true, mode: 0o600 });
    let before: number;
    try {
      before = (await file.stat()).size;
      // The session's bound: past it, this session records nothing more (its first events are kept).
      if (before + line.length > limits.perSession) return;
      await appendWholeLines(file, line);
    } finally {
      file.close();
    }
    // A file created under another umask keeps 0600 whatever.
    if (before === 0) await Deno.chmod(path, 0o600).catch(() => {});
    const step = limits.checkEvery;
    if (before === 0 || Math.floor(before / step) !== Math.floor((before + line.length) / step)) {
      await pruneRecordings(dir, path, limits.total);
    }
  } catch {
    // A full disk or an unwritable home must never change what the host is told.
  }
}

/** Reads one recording file: its events in order (torn or foreign lines skipped). */
export async function readRecording(path: string): Promise<RecordedEvent[]> {
  const out: RecordedEvent[] = [];
  for (const line of (await Deno.readTextFile(path)).split("\n")) {
    if (line.trim() === "") continue;
    try {
      const v = JSON.parse(line);
      if (isObject(v) && isObject(v.event) && typeof v.recorded_at === "string") out.push(v as RecordedEvent);
    } catch { /* a torn line */ }
  }
  return out;
}

/** The recorded events of one session (by its id), or of every session since `since`, oldest first. */
export async function recordedEvents(
  home: string,
  pick: { session: string } | { since: Date },
): Promise<RecordedEvent[]> {
  const dir = recordingsDir(home);
  if ("session" in pick) {
    try {
      return await readRecording(join(dir, `${safeSessionSegment(pick.session)}.jsonl`));
    } catch {
      return [];
    }
  }
  const out: RecordedEvent[] = [];
  for (const s of await sessions(dir)) {
    if (s.mtime < pick.since.getTime()) continue;
    for (const e of await readRecording(s.path)) if (Date.parse(e.recorded_at) >= pick.since.getTime()) out.push(e);
  }
  return out.sort((a, b) => a.recorded_at.localeCompare(b.recorded_at));
}

/**
 * The newest `limit` recorded events that `keep` accepts, oldest first: sessions are read newest first and no
 * further than needed (all recordings may hold 200 MiB; review's replay wants the last few hundred).
 */
export async function latestEvents(
  home: string,
  keep: (e: RecordedEvent) => boolean,
  limit: number,
): Promise<{ events: RecordedEvent[]; any: boolean }> {
  const all = await sessions(recordingsDir(home));
  const out: RecordedEvent[] = [];
  for (const s of all.reverse()) {
    if (out.length >= limit) break;
    try {
      out.push(...(await readRecording(s.path)).filter(keep));
    } catch { /* removed meanwhile */ }
  }
  const events = out.sort((a, b) => a.recorded_at.localeCompare(b.recorded_at)).slice(-limit);
  return { events, any: all.length > 0 };
}
