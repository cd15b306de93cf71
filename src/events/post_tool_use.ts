/**
 * PostToolUse (SPEC §5, §8, §9): runs only after a successful tool call.
 * `decision: "block"` (+ required reason) rejects the tool result;
 * `continue: false` stops with feedback `reason`, else `stopReason`, else a
 * fixed text; additionalContext is separate context. Any undeclared field
 * (result replacements, `suppressOutput`) fails the handler. All block and
 * stop feedback joins in configuration order.
 * @module
 */
import type {
  AggregationItem,
  Dialect,
  EventDecision,
  EventModule,
  HandlerEffect,
  HandlerOutcome,
  Zod,
} from "./types.ts";
import type { JsonObject } from "../util/json.ts";
import { NO_DECISION } from "./types.ts";
import {
  checkEventName,
  CLAUDE_BLOCK_REASON,
  claudeOutput,
  commonInput,
  contextOutput,
  done,
  fail,
  informational,
  joinFeedback,
  STANDARD_TIMEOUT,
  stringField,
  toolInput,
} from "./common.ts";

/** Feedback used when a stopping PostToolUse hook gives neither reason nor stopReason. */
export const DEFAULT_STOP_FEEDBACK = defaultStopFeedback("PostToolUse");

/** The fixed stop feedback of a tool-result event (PostToolUse, PostToolUseFailure). */
export function defaultStopFeedback(event: ToolResultEvent): string {
  return `A ${event} hook stopped the session after this tool call.`;
}

/** The events that answer after a tool call, read by one protocol (SPEC §8; §2.2 r4: PostToolUseFailure). */
export type ToolResultEvent = "PostToolUse" | "PostToolUseFailure";

/**
 * Reads one answer after a tool call: `decision: "block"` (+ reason, the mind dialect needs one) rejects
 * the result as feedback to the model; `continue: false` stops with feedback; additionalContext is context.
 */
export function interpretToolResult(event: ToolResultEvent, output: JsonObject, dialect: Dialect): HandlerOutcome {
  const bad = checkEventName(event, output);
  if (bad) return fail(bad);
  const effect: HandlerEffect = informational(output);
  const reason = stringField(output, "reason");
  if (output.decision === "block") {
    if (!reason?.trim()) {
      if (dialect === "mind") {
        return fail(
          `${event} hook returned decision "block" without a reason — the result was not rejected`,
        );
      }
      effect.blockReason = CLAUDE_BLOCK_REASON;
    } else effect.blockReason = reason;
  } else if (reason !== undefined && output.continue !== false && dialect === "mind") {
    // SPEC §8 r2: feedback that neither rejects the result nor stops would be lost without a word.
    return fail(
      `${event} hook returned a reason without decision "block" or continue: false — the reason was not delivered`,
    );
  }
  if (output.continue === false) {
    effect.stop = true;
    const stopReason = stringField(output, "stopReason");
    if (stopReason?.trim()) effect.stopReason = stopReason;
    // With a block, `reason` is already the block feedback; the stop adds its own only when distinct.
    const feedback = reason?.trim() && output.decision !== "block"
      ? reason
      : effect.stopReason ?? defaultStopFeedback(event);
    effect.stopFeedback = feedback;
  }
  return done(effect);
}

/** Folds every block and stop feedback in configuration order; any block makes it `block`, else any stop `stop`. */
export function aggregateToolResult(items: AggregationItem[]): EventDecision {
  const feedback: string[] = [];
  for (const i of items) {
    if (i.effect.blockReason !== undefined) {
      feedback.push(i.effect.blockReason);
    }
    if (i.effect.stopFeedback !== undefined) {
      feedback.push(i.effect.stopFeedback);
    }
  }
  const blocked = items.some((i) => i.effect.blockReason !== undefined);
  const stopItem = items.find((i) => i.effect.stop);
  if (!blocked && !stopItem) return NO_DECISION;
  return {
    ...NO_DECISION,
    decision: blocked ? "block" : "stop",
    reason: joinFeedback(feedback),
    continue: !stopItem,
    stopReason: stopItem?.effect.stopReason ?? null,
  };
}

/** The output a tool-result event accepts (SPEC §8): strict, so a result replacement fails the handler. */
export function toolResultOutput(z: Zod, event: ToolResultEvent) {
  return z.strictObject({
    continue: z.boolean().optional(),
    stopReason: z.string().optional(),
    systemMessage: z.string().optional(),
    decision: z.literal("block").optional(),
    reason: z.string().optional(),
    hookSpecificOutput: contextOutput(z, event).optional(),
  });
}

/** The PostToolUse event. */
export const postToolUse: EventModule = {
  name: "PostToolUse",
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
  meaning: "after a tool ran; can block its result or add context",
  coverage: "tool",
  control: "block",
  schemas: (z) => ({
    input: z.strictObject({
      ...commonInput(z, "PostToolUse", { model: true }),
      ...toolInput(z),
      tool_use_id: z.string(),
      tool_response: z.unknown(),
    }),
    output: toolResultOutput(z, "PostToolUse"),
    claudeOutput: claudeOutput(z),
  }),
  interpret: (output, dialect) => interpretToolResult("PostToolUse", output, dialect),
  aggregate: aggregateToolResult,
};
