/**
 * SubagentStop (SPEC §5, §8): matcher subject `agent_type`; JSON only. Same
 * control rules as Stop; the loop guard counts per `agent_id`.
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

/** The SubagentStop event. */
export const subagentStop: EventModule = {
  name: "SubagentStop",
  matcher: { kind: "field", field: "agent_type" },
  canBlock: true,
  plainStdout: "invalid",
  contextLimit: "continuation",
  timeout: STANDARD_TIMEOUT,
  asyncAllowed: true,
  mcpAllowed: true,
  envFile: false,
  spillsFeedback: false,
  stopGuard: (input) => `SubagentStop:${String(input.agent_id ?? "")}`,
  endsSession: false,
  namesSkippedHooks: false,
  subagentTranscript: false,
  meaning: "a subagent is about to finish; can make it continue",
  coverage: "client",
  control: "continuation",
  schemas: (z) => ({
    input: z.strictObject({
      ...commonInput(z, "SubagentStop", { model: true }),
      turn_id: z.string(),
      permission_mode: z.enum(PERMISSION_MODES),
      agent_id: z.string(),
      agent_type: z.string(),
      agent_transcript_path: z.string().nullable(),
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
  interpret: (output, dialect) => interpretStopLike("SubagentStop", output, dialect),
  aggregate: aggregateStopLike,
};
