/**
 * Stop (SPEC §5, §8): no matcher; JSON only (or nothing). `continue: false`
 * wins; otherwise block reasons (or exit-2 stderr) join, in configuration
 * order, into the continuation prompt. The loop guard lives in the dispatcher
 * because it needs per-session state.
 * @module
 */
import type { EventModule } from "./types.ts";
import {
  aggregateStopLike,
  claudeOutput,
  commonInput,
  commonOutput,
  interpretStopLike,
  PERMISSION_MODES,
  STANDARD_TIMEOUT,
} from "./common.ts";

/** The Stop event. */
export const stop: EventModule = {
  name: "Stop",
  matcher: { kind: "none" },
  canBlock: true,
  plainStdout: "invalid",
  contextLimit: "continuation",
  timeout: STANDARD_TIMEOUT,
  asyncAllowed: true,
  mcpAllowed: true,
  envFile: false,
  spillsFeedback: false,
  stopGuard: () => "Stop",
  endsSession: false,
  namesSkippedHooks: false,
  subagentTranscript: true,
  meaning: "the agent is about to end its turn; can make it continue",
  coverage: "client",
  control: "continuation",
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
    claudeOutput: claudeOutput(z),
  }),
  interpret: (output, dialect) => interpretStopLike("Stop", output, dialect),
  aggregate: aggregateStopLike,
};
