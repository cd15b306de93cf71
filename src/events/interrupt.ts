/**
 * Interrupt (SPEC §5, §8): no matcher; JSON with only an optional
 * systemMessage, or nothing; plain text is invalid. Timeouts 1..3 s.
 * @module
 */
import type { EventModule } from "./types.ts";
import { NO_DECISION } from "./types.ts";
import { claudeOutput, commonInput, done, informational, interpretClaudeCommon, PERMISSION_MODES } from "./common.ts";

/** The Interrupt event. */
export const interrupt: EventModule = {
  name: "Interrupt",
  matcher: { kind: "none" },
  canBlock: false,
  plainStdout: "invalid",
  contextLimit: "none",
  timeout: { default: 1, max: 3 },
  asyncAllowed: true,
  mcpAllowed: true,
  envFile: false,
  spillsFeedback: false,
  stopGuard: null,
  endsSession: false,
  namesSkippedHooks: false,
  subagentTranscript: true,
  meaning: "the user interrupted the turn",
  coverage: "client",
  control: "none",
  schemas: (z) => ({
    input: z.strictObject({
      ...commonInput(z, "Interrupt", { model: true }),
      turn_id: z.string(),
      permission_mode: z.enum(PERMISSION_MODES),
    }),
    output: z.strictObject({ systemMessage: z.string().optional() }),
    claudeOutput: claudeOutput(z),
  }),
  interpret: (output, dialect) =>
    dialect === "claude" ? interpretClaudeCommon("Interrupt", output) : done(informational(output)),
  aggregate: () => NO_DECISION,
};
