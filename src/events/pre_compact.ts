/**
 * PreCompact (SPEC §5, §8): matcher subject `trigger`; common output fields
 * only; `continue: false` stops before compaction.
 * @module
 */
import type { EventModule } from "./types.ts";
import {
  aggregateStopOnly,
  claudeOutput,
  commonInput,
  commonOutput,
  done,
  informational,
  interpretClaudeCommon,
  STANDARD_TIMEOUT,
  stopEffect,
} from "./common.ts";

/** The PreCompact event. */
export const preCompact: EventModule = {
  name: "PreCompact",
  matcher: { kind: "field", field: "trigger" },
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
  meaning: "before the conversation is compacted",
  coverage: "client",
  control: "none",
  schemas: (z) => ({
    input: z.strictObject({
      ...commonInput(z, "PreCompact", { model: true }),
      turn_id: z.string(),
      trigger: z.enum(["manual", "auto"]),
    }),
    output: z.strictObject(commonOutput(z)),
    claudeOutput: claudeOutput(z),
  }),
  interpret: (output, dialect) =>
    dialect === "claude"
      ? interpretClaudeCommon("PreCompact", output)
      : done({ ...informational(output), ...stopEffect(output) }),
  aggregate: aggregateStopOnly,
};
