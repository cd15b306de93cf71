/**
 * Building blocks shared by the event modules: the common input fields
 * (SPEC §5), the common output fields (SPEC §8), and small helpers for the
 * accept/reject rules and aggregations that several events share.
 * @module
 */
import type {
  AggregationItem,
  Dialect,
  EventDecision,
  HandlerEffect,
  HandlerOutcome,
  TimeoutRule,
  Zod,
} from "./types.ts";
import type { ZodType } from "zod";
import type { JsonObject } from "../util/json.ts";
import { fail as failure, ok, type Result } from "../util/result.ts";
import { NO_DECISION } from "./types.ts";
import type { EventName } from "./names.ts";

/** `permission_mode` values (SPEC §5). */
export const PERMISSION_MODES = [
  "default",
  "acceptEdits",
  "plan",
  "dontAsk",
  "bypassPermissions",
] as const;

/**
 * The input fields every event carries. `model` is left out for SessionEnd.
 * `agent_id`/`agent_type` are optional everywhere (present inside a subagent);
 * the Subagent events make them required.
 */
export function commonInput(
  z: Zod,
  event: EventName,
  opts: { model: boolean },
) {
  return {
    session_id: z.string(),
    transcript_path: z.string().nullable(),
    cwd: z.string(),
    hook_event_name: z.literal(event),
    ...(opts.model ? { model: z.string() } : {}),
    agent_id: z.string().optional(),
    agent_type: z.string().optional(),
  };
}

/** The fields a tool event adds; `tool_input` is open because other tools keep their own arguments. */
export function toolInput(z: Zod) {
  return {
    turn_id: z.string(),
    permission_mode: z.enum(PERMISSION_MODES),
    tool_name: z.string(),
    tool_input: z.record(z.string(), z.unknown()),
  };
}

/** The output fields common to most events (SPEC §8). */
export function commonOutput(z: Zod) {
  return {
    continue: z.boolean().optional(),
    stopReason: z.string().optional(),
    systemMessage: z.string().optional(),
    suppressOutput: z.boolean().optional(),
  };
}

/**
 * The output fields Claude Code reads on every event (SPEC §8.1), typed as it types them. Loose
 * objects: any other key is ignored, as Claude Code ignores it.
 */
export function claudeCommonOutput(z: Zod) {
  return {
    continue: z.boolean().optional(),
    stopReason: z.string().optional(),
    systemMessage: z.string().optional(),
    suppressOutput: z.boolean().optional(),
    decision: z.enum(["approve", "block"]).optional(),
    reason: z.string().optional(),
  };
}

/**
 * A Claude-dialect output schema for `event`: the common fields plus a loose `hookSpecificOutput`
 * holding `hso` (Claude Code checks `hookEventName` itself; `checkEventName` does here).
 */
export function claudeOutput(z: Zod, hso: Record<string, ZodType> = {}) {
  return z.looseObject({
    ...claudeCommonOutput(z),
    hookSpecificOutput: z.looseObject({
      hookEventName: z.string(),
      additionalContext: z.string().optional(),
      ...hso,
    }).optional(),
  });
}

/** The reason Claude Code gives a block or deny that names none (SPEC §8.1). */
export const CLAUDE_BLOCK_REASON = "Blocked by hook";

/** `hookSpecificOutput` that only carries additionalContext, for `event`. */
export function contextOutput(z: Zod, event: EventName) {
  return z.strictObject({
    hookEventName: z.literal(event),
    additionalContext: z.string().optional(),
  });
}

/** Reads an optional object field. */
export function objectField(
  o: JsonObject,
  key: string,
): JsonObject | undefined {
  const v = o[key];
  return v && typeof v === "object" && !Array.isArray(v) ? v as JsonObject : undefined;
}

/** Reads an optional string field. */
export function stringField(
  o: JsonObject | undefined,
  key: string,
): string | undefined {
  const v = o?.[key];
  return typeof v === "string" ? v : undefined;
}

/** A failed outcome with its reason. */
export function fail(reason: string): HandlerOutcome {
  return { status: "failed", reason };
}

/** A completed or blocked outcome, depending on whether the effect controls anything. */
export function done(effect: HandlerEffect): HandlerOutcome {
  const controls = effect.blockReason !== undefined || effect.stop === true;
  return { status: controls ? "blocked" : "completed", effect };
}

/** Copies systemMessage and the context of `hookSpecificOutput.additionalContext` into an effect. */
export function informational(output: JsonObject): HandlerEffect {
  const effect: HandlerEffect = {};
  const sm = stringField(output, "systemMessage");
  if (sm !== undefined && sm !== "") effect.systemMessage = sm;
  const ctx = stringField(
    objectField(output, "hookSpecificOutput"),
    "additionalContext",
  );
  if (ctx !== undefined && ctx !== "") effect.additionalContext = ctx;
  return effect;
}

/**
 * Rejects the common fields an event does not support (PreToolUse and
 * PermissionRequest): `continue: false`, `stopReason`, `suppressOutput: true`.
 */
export function rejectUnsupportedCommon(
  event: EventName,
  output: JsonObject,
): string | null {
  if (output.continue === false) {
    return `${event} hook returned unsupported continue: false`;
  }
  if (output.stopReason !== undefined) {
    return `${event} hook returned unsupported stopReason`;
  }
  if (output.suppressOutput === true) {
    return `${event} hook returned unsupported suppressOutput: true`;
  }
  return null;
}

/** `hookSpecificOutput.hookEventName` must name the event it answers. */
export function checkEventName(
  event: EventName,
  output: JsonObject,
): string | null {
  const hso = objectField(output, "hookSpecificOutput");
  if (hso && hso.hookEventName !== event) {
    return `hookSpecificOutput.hookEventName must be "${event}"`;
  }
  return null;
}

/** Effect of `continue: false` (+ stopReason), shared by events where it stops something. */
export function stopEffect(output: JsonObject): HandlerEffect {
  if (output.continue !== false) return {};
  const effect: HandlerEffect = { stop: true };
  const sr = stringField(output, "stopReason");
  if (sr !== undefined && sr !== "") effect.stopReason = sr;
  return effect;
}

/**
 * `decision: "block"`: the reason, or null when not blocking; a failure when the reason is missing.
 * The mind dialect needs a non-empty reason; the Claude dialect blocks with {@link CLAUDE_BLOCK_REASON}
 * without one.
 */
export function blockDecision(
  event: EventName,
  output: JsonObject,
  dialect: Dialect = "mind",
): Result<string | null> {
  if (output.decision !== "block") return ok(null);
  const reason = stringField(output, "reason");
  if (reason === undefined || reason.trim() === "") {
    if (dialect === "claude") return ok(CLAUDE_BLOCK_REASON);
    return failure(`${event} hook returned decision "block" without a reason — nothing was blocked`);
  }
  return ok(reason);
}

/**
 * A Claude-dialect answer on an event whose mind protocol has nothing more to read: the common
 * fields with Claude Code's meaning (`continue: false` stops, SPEC §8.1), every other key ignored.
 */
export function interpretClaudeCommon(event: EventName, output: JsonObject): HandlerOutcome {
  const bad = checkEventName(event, output);
  return bad ? fail(bad) : done({ ...informational(output), ...stopEffect(output) });
}

/** Aggregation for events whose only control is `continue: false` (SessionStart, PreCompact, PostCompact). */
export function aggregateStopOnly(items: AggregationItem[]): EventDecision {
  const stop = items.find((i) => i.effect.stop);
  if (!stop) return NO_DECISION;
  const stopReason = stop.effect.stopReason ?? null;
  return {
    ...NO_DECISION,
    decision: "stop",
    continue: false,
    stopReason,
    reason: stopReason,
  };
}

/** Joins feedback texts the way the spec (and Codex) does: a blank line between them. */
export function joinFeedback(texts: string[]): string {
  return texts.join("\n\n");
}

/** Reads a Stop/SubagentStop answer: JSON only; `continue: false` stops; `decision: "block"` + reason continues. */
export function interpretStopLike(
  event: EventName,
  output: JsonObject,
  dialect: Dialect,
): HandlerOutcome {
  const block = blockDecision(event, output, dialect);
  if (!block.ok) return fail(block.error);
  return done({
    ...informational(output),
    ...stopEffect(output),
    ...(block.value !== null ? { blockReason: block.value } : {}),
  });
}

/**
 * Stop/SubagentStop aggregation: any `continue: false` wins over everything;
 * otherwise every block reason, in configuration order, joins into one
 * continuation prompt.
 */
export function aggregateStopLike(items: AggregationItem[]): EventDecision {
  const stopped = aggregateStopOnly(items);
  if (stopped.decision === "stop") return stopped;
  const reasons = items.flatMap((i) => i.effect.blockReason !== undefined ? [i.effect.blockReason] : []);
  if (reasons.length === 0) return NO_DECISION;
  const prompt = joinFeedback(reasons);
  return {
    ...NO_DECISION,
    decision: "block",
    reason: prompt,
    continuationPrompt: prompt,
  };
}

/** The usual timeout rule: 600 s by default, no upper clamp (SPEC §2.2). */
export const STANDARD_TIMEOUT: TimeoutRule = Object.freeze({ default: 600, max: null });
