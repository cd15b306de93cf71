/**
 * The zod schema of one transcript line (SPEC §11), kept apart from the
 * writer so that dispatch, which only needs transcript paths, never loads zod.
 * @module
 */
import { z } from "zod";
import { TRANSCRIPT_EVENTS } from "./transcript_events.ts";

/** Schema of one transcript line; strict, so an extra top-level field is an error. */
export const TranscriptLine = z.strictObject({
  timestamp: z.iso.datetime({ precision: 3 }),
  event: z.enum(TRANSCRIPT_EVENTS),
  session_id: z.string().min(1),
  turn_id: z.string().nullable(),
  actor: z.string().nullable(),
  payload: z.record(z.string(), z.unknown()),
});

/** One parsed transcript line. */
export type TranscriptLine = z.infer<typeof TranscriptLine>;
