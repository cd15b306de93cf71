/**
 * PostToolUseFailure (SPEC §2.2 r4, §5, §8): a tool call failed. Its input is PostToolUse's with
 * `error` (a string) in place of `tool_response`; its answer is read exactly as PostToolUse's
 * (`decision: "block"` + reason is feedback to the model, `continue: false` stops, additionalContext is
 * context), so one protocol serves both (`interpretToolResult`, `aggregateToolResult`).
 * @module
 */
import type { EventModule } from "./types.ts";
import { claudeOutput, commonInput, STANDARD_TIMEOUT, toolInput } from "./common.ts";
import { aggregateToolResult, interpretToolResult, toolResultOutput } from "./post_tool_use.ts";

/** The PostToolUseFailure event. */
export const postToolUseFailure: EventModule = {
  name: "PostToolUseFailure",
  matcher: { kind: "tool" },
  canBlock: true,
  plainStdout: "ignore",
  contextLimit: "context",
  timeout: STANDARD_TIMEOUT,
  asyncAllowed: true,
  mcpAllowed: true,
  envFile: false,
  spillsFeedback: true,
  stopGuard: null,
  endsSession: false,
  namesSkippedHooks: false,
  subagentTranscript: true,
  meaning: "after a tool call failed; can give the model feedback or add context",
  coverage: "tool",
  control: "block",
  schemas: (z) => ({
    input: z.strictObject({
      ...commonInput(z, "PostToolUseFailure", { model: true }),
      ...toolInput(z),
      tool_use_id: z.string(),
      error: z.string(),
    }),
    output: toolResultOutput(z, "PostToolUseFailure"),
    claudeOutput: claudeOutput(z),
  }),
  interpret: (output, dialect) => interpretToolResult("PostToolUseFailure", output, dialect),
  aggregate: aggregateToolResult,
};
