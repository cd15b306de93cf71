/**
 * PostCompact (SPEC §5, §8): matcher subject `trigger`; common output fields
 * only — `hookSpecificOutput` is rejected; `continue: false` stops after
 * compaction.
 * @module
 */
import type { EventModule } from "./types.ts";
import { aggregateStopOnly, commonInput, commonOutput, done, informational, stopEffect } from "./common.ts";

/** The PostCompact event. */
export const postCompact: EventModule = {
  name: "PostCompact",
  schemas: (z) => ({
    input: z.strictObject({
      ...commonInput(z, "PostCompact", { model: true }),
      turn_id: z.string(),
      trigger: z.enum(["manual", "auto"]),
    }),
    output: z.strictObject(commonOutput(z)),
  }),
  matcherSubject: (input) => String(input.trigger),
  exitTwoBlocks: false,
  plainStdout: "ignore",
  interpret: (output) => done({ ...informational(output), ...stopEffect(output) }),
  aggregate: aggregateStopOnly,
};
