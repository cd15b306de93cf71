/**
 * PreCompact (SPEC §5, §8): matcher subject `trigger`; common output fields
 * only; `continue: false` stops before compaction.
 * @module
 */
import type { EventModule } from "./types.ts";
import { aggregateStopOnly, commonInput, commonOutput, done, informational, stopEffect } from "./common.ts";

/** The PreCompact event. */
export const preCompact: EventModule = {
  name: "PreCompact",
  schemas: (z) => ({
    input: z.strictObject({
      ...commonInput(z, "PreCompact", { model: true }),
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
