/**
 * SubagentStop (SPEC §5, §8): matcher subject `agent_type`; JSON only. Same
 * control rules as Stop; the loop guard counts per `agent_id`.
 * @module
 */
import type { EventModule } from "./types.ts";
import { aggregateStopLike, commonInput, commonOutput, interpretStopLike, PERMISSION_MODES } from "./common.ts";

/** The SubagentStop event. */
export const subagentStop: EventModule = {
  name: "SubagentStop",
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
  }),
  matcherSubject: (input) => String(input.agent_type),
  exitTwoBlocks: true,
  plainStdout: "invalid",
  interpret: (output) => interpretStopLike("SubagentStop", output),
  aggregate: aggregateStopLike,
};
