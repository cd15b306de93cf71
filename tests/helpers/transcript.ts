/**
 * Helpers of the session-transcript tests (src/session/transcript*_test.ts, tests/transcript_test.ts):
 * session ids that carry a date, a throw-away home, and a transcript file's lines.
 * @module
 */
import { assert } from "./assert.ts";
import type { TranscriptEntry } from "../../src/session/transcript_line.ts";
import { TranscriptLine } from "../../src/session/transcript_schema.ts";

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** A UUIDv7 whose embedded time is `date`. */
export function uuidV7(date: Date, rest = "7abc-9def-0123456789ab"): string {
  const hex = date.getTime().toString(16).padStart(12, "0");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${rest}`;
}

/** A ULID whose embedded time is `date`. */
export function ulid(date: Date, random = "7ZYXWVTSRQPNMKJH"): string {
  let ms = date.getTime();
  let time = "";
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[ms % 32] + time;
    ms = Math.floor(ms / 32);
  }
  return time + random;
}

/** Runs `fn` with a fresh temporary home, removed afterwards. */
export async function withHome(fn: (home: string) => Promise<void>): Promise<void> {
  const home = await Deno.makeTempDir({ prefix: "transcript_test_" });
  try {
    await fn(home);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

/** The file's lines (without the final empty string after the last line break). */
export async function readLines(path: string): Promise<string[]> {
  const text = await Deno.readTextFile(path);
  assert(text.endsWith("\n"), "transcript does not end with a line break");
  return text.slice(0, -1).split("\n");
}

/** Parses and schema-checks every line. */
export async function readValidLines(path: string): Promise<TranscriptLine[]> {
  return (await readLines(path)).map((line) => TranscriptLine.parse(JSON.parse(line)));
}

/** An entry of the plain-id session `sid_plain`. */
export function entry(
  event: string,
  payload: Record<string, unknown> = {},
  extra: Partial<TranscriptEntry> = {},
): TranscriptEntry {
  return { sessionId: "sid_plain", event, payload, ...extra };
}

/** The fixed clock of the tests. */
export const DAY = new Date("2026-08-01T10:20:30.123Z");
