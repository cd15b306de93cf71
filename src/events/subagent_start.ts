/**
 * SubagentStart (SPEC §5, §8): matcher subject `agent_type`; plain stdout or
 * additionalContext becomes context for the subagent. The common output shape
 * is accepted, but `continue: false` does not stop a subagent.
 * @module
 */
import type { EventModule } from "./types.ts";
import { NO_DECISION } from "./types.ts";
import {
  checkEventName,
  commonInput,
  commonOutput,
  contextOutput,
  done,
  fail,
  informational,
  PERMISSION_MODES,
} from "./common.ts";

/** The SubagentStart event. */
export const subagentStart: EventModule = {
  name: "SubagentStart",
  schemas: (z) => ({
    input: z.strictObject({
      ...commonInput(z, "SubagentStart", { model: true }),
      turn_id: z.string(),
      permission_mode: z.enum(PERMISSION_MODES),
      agent_id: z.string(),
      agent_type: z.string(),
    }),
    output: z.strictObject({
      ...commonOutput(z),
      hookSpecificOutput: contextOutput(z, "SubagentStart").optional(),
    }),
  }),
  matcherSubject: (input) => String(input.agent_type),
  exitTwoBlocks: false,
  plainStdout: "context",
  interpret(output) {
    const bad = checkEventName("SubagentStart", output);
    return bad ? fail(bad) : done(informational(output));
  },
  aggregate: () => NO_DECISION,
};
