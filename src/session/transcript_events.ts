/**
 * The closed list of transcript event names (SPEC §11), shared by the writer
 * and its zod schema.
 * @module
 */

/** The closed list of transcript event names (§11). */
export const TRANSCRIPT_EVENTS = [
  "session.started",
  "session.ended",
  "turn.started",
  "turn.completed",
  "turn.failed",
  "turn.interrupted",
  "message.created",
  "message.updated",
  "tool.started",
  "tool.completed",
  "tool.failed",
  "context.compacted",
  "context.compaction.failed",
] as const;

/** One transcript event name. */
export type TranscriptEvent = (typeof TRANSCRIPT_EVENTS)[number];
