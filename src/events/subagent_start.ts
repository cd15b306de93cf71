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
  claudeOutput,
  commonInput,
  commonOutput,
  contextOutput,
  done,
  fail,
  informational,
  interpretClaudeCommon,
  PERMISSION_MODES,
  STANDARD_TIMEOUT,
} from "./common.ts";

/** The SubagentStart event. */
export const subagentStart: EventModule = {
  name: "SubagentStart",
  matcher: { kind: "field", field: "agent_type" },
  canBlock: false,
  plainStdout: "context",
  contextLimit: "context",
  timeout: STANDARD_TIMEOUT,
  asyncAllowed: true,
  mcpAllowed: true,
  envFile: false,
  spillsFeedback: false,
  stopGuard: null,
  endsSession: false,
  namesSkippedHooks: false,
  subagentTranscript: false,
  meaning: "a subagent starts; can add context",
  coverage: "client",
  control: "none",
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
    claudeOutput: claudeOutput(z),
  }),
  interpret(output, dialect) {
    // Claude Code's `continue: false` stops the turn from any event (SPEC §8.1); mind's does not stop a subagent.
    if (dialect === "claude") return interpretClaudeCommon("SubagentStart", output);
    const bad = checkEventName("SubagentStart", output);
    return bad ? fail(bad) : done(informational(output));
  },
  aggregate: () => NO_DECISION,
};
