/**
 * The observation log (SPEC §12): `$MIND_HOME/logs/hooks.jsonl`, one line per
 * discovery warning and per handler run; rotated at 10 MiB keeping 3 files
 * (`hooks.jsonl`, `.1`, `.2`). Never holds hook stdin or full outputs.
 * Logging must never fail a dispatch, so every error here is swallowed.
 * @module
 */
import { join } from "../util/paths.ts";

/** Rotation threshold. */
export const LOG_ROTATE_BYTES = 10 * 1024 * 1024;
/** Files kept, the live one included. */
export const LOG_FILES_KEPT = 3;

/** One log line. */
export type LogEntry =
  | {
    kind: "warning";
    code: string;
    message: string;
    source: string;
    line?: number;
    column?: number;
  }
  | {
    kind: "run";
    key: string;
    event: string;
    status: string;
    duration_ms: number | null;
    reason: string | null;
    exit_code: number | null;
  };

/** Path of the live log file. */
export function logPath(home: string): string {
  return join(home, "logs", "hooks.jsonl");
}

/** Rotates `path` when it is at or over `limit` bytes: path → .1 → .2; the oldest is dropped. */
export async function rotateIfNeeded(
  path: string,
  limit = LOG_ROTATE_BYTES,
  kept = LOG_FILES_KEPT,
): Promise<void> {
  let size = 0;
  try {
    size = (await Deno.stat(path)).size;
  } catch {
    return;
  }
  if (size < limit) return;
  for (let i = kept - 1; i >= 1; i--) {
    const from = i === 1 ? path : `${path}.${i - 1}`;
    try {
      await Deno.rename(from, `${path}.${i}`);
    } catch { /* a missing generation is fine */ }
  }
}

/** Appends entries (with a timestamp) to the log; never throws. */
export async function appendLog(
  home: string,
  entries: LogEntry[],
  limit = LOG_ROTATE_BYTES,
): Promise<void> {
  if (entries.length === 0) return;
  const path = logPath(home);
  const ts = new Date().toISOString();
  const text = entries.map((e) => JSON.stringify({ timestamp: ts, ...e })).join("\n") +
    "\n";
  try {
    await Deno.mkdir(join(home, "logs"), { recursive: true });
    await rotateIfNeeded(path, limit);
    await Deno.writeTextFile(path, text, { append: true });
  } catch {
    // The log is an observation aid; a read-only home must not break dispatch.
  }
}
