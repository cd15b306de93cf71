/**
 * Stop (SPEC §5, §8): no matcher; JSON only (or nothing). `continue: false`
 * wins; otherwise block reasons (or exit-2 stderr) join, in configuration
 * order, into the continuation prompt. The loop guard lives in the dispatcher
 * because it needs per-session state.
 * @module
 */
import type { EventModule } from "./types.ts";
import { aggregateStopLike, commonInput, commonOutput, interpretStopLike, PERMISSION_MODES } from "./common.ts";

/** The Stop event. */
export const stop: EventModule = {
  name: "Stop",
  schemas: (z) => ({
    input: z.strictObject({
      ...commonInput(z, "Stop", { model: true }),
      turn_id: z.string(),
      permission_mode: z.enum(PERMISSION_MODES),
      stop_hook_active: z.boolean(),
      last_assistant_message: z.string().nullable(),
    }),
    output: z.strictObject({
      ...commonOutput(z),
      decision: z.literal("block").optional(),
      reason: z.string().optional(),
    }),
  }),
  matcherSubject: () => null,
  exitTwoBlocks: true,
  plainStdout: "invalid",
  interpret: (output) => interpretStopLike("Stop", output),
  aggregate: aggregateStopLike,
};
