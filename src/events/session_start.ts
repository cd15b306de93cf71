/**
 * SessionStart (SPEC §5, §8): matcher subject `source`; plain stdout or
 * additionalContext is context; `continue: false` stops the turn from starting
 * while the batch's context is kept for the next turn.
 * @module
 */
import type { EventModule } from "./types.ts";
import {
  aggregateStopOnly,
  checkEventName,
  commonInput,
  commonOutput,
  contextOutput,
  done,
  fail,
  informational,
  PERMISSION_MODES,
  stopEffect,
} from "./common.ts";

/** The SessionStart event. */
export const sessionStart: EventModule = {
  name: "SessionStart",
  schemas: (z) => ({
    input: z.strictObject({
      ...commonInput(z, "SessionStart", { model: true }),
      permission_mode: z.enum(PERMISSION_MODES),
      source: z.enum(["startup", "resume", "clear", "compact"]),
    }),
    output: z.strictObject({
      ...commonOutput(z),
      hookSpecificOutput: contextOutput(z, "SessionStart").optional(),
    }),
  }),
  matcherSubject: (input) => String(input.source),
  exitTwoBlocks: false,
  plainStdout: "context",
  interpret(output) {
    const bad = checkEventName("SessionStart", output);
    if (bad) return fail(bad);
    return done({ ...informational(output), ...stopEffect(output) });
  },
  aggregate: aggregateStopOnly,
};
