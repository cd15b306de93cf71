/**
 * SessionEnd (SPEC §5, §8): advisory and synchronous; matcher subject
 * `reason`; no `model` in the input; output steers nothing, only a
 * systemMessage is surfaced. Timeouts default to 1 s, clamped to 3 s.
 * @module
 */
import type { EventModule } from "./types.ts";
import { NO_DECISION } from "./types.ts";
import { claudeOutput, commonInput, commonOutput, done, informational, interpretClaudeCommon } from "./common.ts";

/** The SessionEnd event. */
export const sessionEnd: EventModule = {
  name: "SessionEnd",
  matcher: { kind: "field", field: "reason" },
  canBlock: false,
  plainStdout: "ignore",
  contextLimit: "none",
  timeout: { default: 1, max: 3 },
  asyncAllowed: false,
  mcpAllowed: false,
  envFile: false,
  spillsFeedback: false,
  stopGuard: null,
  endsSession: true,
  namesSkippedHooks: false,
  subagentTranscript: true,
  meaning: "the session ends; cleanup, cannot block",
  coverage: "client",
  control: "none",
  schemas: (z) => ({
    input: z.strictObject({
      ...commonInput(z, "SessionEnd", { model: false }),
      reason: z.string(),
    }),
    output: z.strictObject(commonOutput(z)),
    claudeOutput: claudeOutput(z),
  }),
  interpret: (output, dialect) =>
    dialect === "claude"
      ? interpretClaudeCommon("SessionEnd", output)
      : done({ systemMessage: informational(output).systemMessage }),
  aggregate: () => NO_DECISION,
};
