/**
 * Notification (SPEC §2.2 r4, §5, §8): the host tells the user something (a permission prompt, an idle
 * prompt). Matcher subject `notification_type`, as Claude Code matches it; the answer carries only an
 * optional `systemMessage` (plain stdout is ignored, as on the other events that cannot speak to the
 * model); it controls nothing. The Claude dialect reads its common fields as Claude Code does.
 * @module
 */
import type { EventModule } from "./types.ts";
import { NO_DECISION } from "./types.ts";
import { claudeOutput, commonInput, done, informational, interpretClaudeCommon, STANDARD_TIMEOUT } from "./common.ts";

/** The Notification event. */
export const notification: EventModule = {
  name: "Notification",
  matcher: { kind: "field", field: "notification_type" },
  canBlock: false,
  plainStdout: "ignore",
  contextLimit: "none",
  timeout: STANDARD_TIMEOUT,
  asyncAllowed: true,
  mcpAllowed: true,
  envFile: false,
  spillsFeedback: false,
  stopGuard: null,
  endsSession: false,
  namesSkippedHooks: false,
  subagentTranscript: true,
  meaning: "the host tells the user something (a permission or idle prompt)",
  coverage: "client",
  control: "none",
  schemas: (z) => ({
    input: z.strictObject({
      ...commonInput(z, "Notification", { model: true }),
      message: z.string(),
      notification_type: z.string(),
    }),
    output: z.strictObject({ systemMessage: z.string().optional() }),
    claudeOutput: claudeOutput(z),
  }),
  interpret: (output, dialect) =>
    dialect === "claude"
      ? interpretClaudeCommon("Notification", output)
      : done({ systemMessage: informational(output).systemMessage }),
  aggregate: () => NO_DECISION,
};
