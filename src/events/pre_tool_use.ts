/**
 * PreToolUse (SPEC §5, §8, §9): matcher subject the tool name and its
 * aliases. `deny` needs a reason; `allow` only with `updatedInput`; legacy
 * `decision: "block"` means deny. `ask`, legacy `approve`, `continue: false`,
 * `stopReason` and `suppressOutput: true` fail the handler, and so do
 * inconsistent fields (a reason without its decision, a rewrite without
 * `allow`). A deny in an output always denies, dropping any allow or rewrite
 * of the same output. Any deny blocks with the first reason in configuration
 * order; otherwise any `ask` asks with the first ask's reason (r3); otherwise
 * the `updatedInput` of the handler that completed last wins whole (with an
 * ask too: the host asks about the rewritten call).
 *
 * The Claude dialect (SPEC §8.1) reads it as Claude Code does: unknown keys
 * ignored, a deny without a reason blocks with `Blocked by hook`, `ask` is a
 * decision (r3; without a reason: {@link CLAUDE_ASK_REASON}), `allow` (or
 * legacy `approve`) is forwarded to Claude Code, `updatedInput` rewrites with
 * or without a decision, `continue: false` stops.
 * @module
 */
import type { EventModule, HandlerEffect, HandlerOutcome } from "./types.ts";
import type { JsonObject } from "../util/json.ts";
import { NO_DECISION } from "./types.ts";
import {
  checkEventName,
  CLAUDE_BLOCK_REASON,
  claudeOutput,
  commonInput,
  commonOutput,
  done,
  fail,
  informational,
  objectField,
  rejectUnsupportedCommon,
  STANDARD_TIMEOUT,
  stopEffect,
  stringField,
  toolInput,
} from "./common.ts";

/** The PreToolUse event. */
export const preToolUse: EventModule = {
  name: "PreToolUse",
  matcher: { kind: "tool" },
  canBlock: true,
  plainStdout: "ignore",
  contextLimit: "context",
  timeout: STANDARD_TIMEOUT,
  asyncAllowed: true,
  mcpAllowed: true,
  envFile: false,
  spillsFeedback: false,
  stopGuard: null,
  endsSession: false,
  namesSkippedHooks: false,
  subagentTranscript: true,
  meaning: "before a tool runs; can deny or rewrite the call",
  coverage: "tool",
  control: "tool-permission",
  schemas: (z) => ({
    input: z.strictObject({
      ...commonInput(z, "PreToolUse", { model: true }),
      ...toolInput(z),
      tool_use_id: z.string(),
    }),
    output: z.strictObject({
      ...commonOutput(z),
      decision: z.enum(["block", "approve"]).optional(),
      reason: z.string().optional(),
      hookSpecificOutput: z.strictObject({
        hookEventName: z.literal("PreToolUse"),
        permissionDecision: z.enum(["allow", "deny", "ask"]).optional(),
        permissionDecisionReason: z.string().optional(),
        updatedInput: z.record(z.string(), z.unknown()).optional(),
        additionalContext: z.string().optional(),
      }).optional(),
    }),
    claudeOutput: claudeOutput(z, {
      permissionDecision: z.enum(["allow", "deny", "ask", "defer"]).optional(),
      permissionDecisionReason: z.string().optional(),
      updatedInput: z.record(z.string(), z.unknown()).optional(),
    }),
  }),
  interpret: (output, dialect) => dialect === "claude" ? interpretClaude(output) : interpretMind(output),
  aggregate(items) {
    // deny > ask > allow, as Claude Code folds them (SPEC §8.1 r3); each reason the first in configuration order.
    const deny = items.find((i) => i.effect.blockReason !== undefined);
    if (deny) {
      return {
        ...NO_DECISION,
        decision: "deny",
        reason: deny.effect.blockReason!,
      };
    }
    let last: { seq: number; input: Record<string, unknown> } | null = null;
    for (const i of items) {
      if (i.effect.updatedInput && (!last || i.completedSeq > last.seq)) {
        last = { seq: i.completedSeq, input: i.effect.updatedInput };
      }
    }
    const ask = items.find((i) => i.effect.ask !== undefined);
    if (ask) return { ...NO_DECISION, decision: "ask", reason: ask.effect.ask!, updatedInput: last?.input ?? null };
    return last ? { ...NO_DECISION, decision: "allow", updatedInput: last.input } : NO_DECISION;
  },
};

/**
 * The reason of a Claude-dialect `ask` that gives none: Claude Code's own words
 * (`Hook PreToolUse:<tool> asked for confirmation for this tool`), without the tool.
 */
export const CLAUDE_ASK_REASON = "Hook asked for confirmation for this tool";

/** A non-empty string, else undefined. */
function nonEmpty(text: string | undefined): string | undefined {
  return text?.trim() ? text : undefined;
}

/** The mind dialect (SPEC §8). */
function interpretMind(output: JsonObject): HandlerOutcome {
  const bad = checkEventName("PreToolUse", output) ?? rejectUnsupportedCommon("PreToolUse", output);
  if (bad) return fail(bad);
  if (output.decision === "approve") return fail(`PreToolUse hook returned unsupported decision "approve"`);
  const hso = objectField(output, "hookSpecificOutput");
  const decision = stringField(hso, "permissionDecision");
  const effect: HandlerEffect = informational(output);
  // A deny always denies (SPEC §8 r2): an allow or rewrite in the same output is dropped, never a failure.
  if (decision === "deny") {
    const reason = nonEmpty(stringField(hso, "permissionDecisionReason"));
    if (reason === undefined) {
      return fail(`permissionDecision "deny" needs a permissionDecisionReason — the tool call was not blocked`);
    }
    effect.blockReason = reason;
  }
  if (output.decision === "block") {
    const reason = nonEmpty(stringField(output, "reason"));
    if (reason === undefined) {
      return fail(`PreToolUse hook returned decision "block" without a reason — the tool call was not blocked`);
    }
    effect.blockReason ??= reason;
  }
  if (effect.blockReason !== undefined) return done(effect);
  if (output.reason !== undefined) {
    return fail(`PreToolUse hook returned a reason without decision "block" — nothing was blocked`);
  }
  if (decision === "ask") return fail(`PreToolUse hook returned unsupported permissionDecision "ask"`);
  if (hso?.permissionDecisionReason !== undefined && decision === undefined) {
    return fail(`PreToolUse hook returned a permissionDecisionReason without a permissionDecision`);
  }
  const updated = objectField(hso ?? {}, "updatedInput");
  if (decision === "allow") {
    if (!updated) {
      return fail(`permissionDecision "allow" is supported only together with updatedInput — nothing was changed`);
    }
    effect.allow = true;
    effect.updatedInput = updated;
  } else if (updated) {
    return fail(`updatedInput needs permissionDecision "allow" — the tool input was not changed`);
  }
  return done(effect);
}

/** The Claude dialect (SPEC §8.1): as Claude Code reads a PreToolUse answer. */
function interpretClaude(output: JsonObject): HandlerOutcome {
  const bad = checkEventName("PreToolUse", output);
  if (bad) return fail(bad);
  const hso = objectField(output, "hookSpecificOutput");
  const decision = stringField(hso, "permissionDecision");
  const effect: HandlerEffect = { ...informational(output), ...stopEffect(output) };
  const topReason = nonEmpty(stringField(output, "reason"));
  if (decision === "deny") {
    effect.blockReason = nonEmpty(stringField(hso, "permissionDecisionReason")) ?? topReason ?? CLAUDE_BLOCK_REASON;
  } else if (output.decision === "block") {
    // mind's rule over Claude Code's (which lets hookSpecificOutput win): a block in an output always denies.
    effect.blockReason = topReason ?? CLAUDE_BLOCK_REASON;
  }
  if (effect.blockReason !== undefined) return done(effect);
  const forwarded = decision === "allow" || decision === "ask"
    ? decision
    : decision === undefined && output.decision === "approve"
    ? "allow"
    : undefined;
  if (forwarded !== undefined) {
    effect.forwardedDecision = forwarded;
    const reason = nonEmpty(stringField(hso, "permissionDecisionReason")) ?? topReason;
    if (reason !== undefined) effect.forwardedReason = reason;
    // `ask` is a decision of mind's own result (r3); the hook's own reason still goes to Claude Code as given.
    if (forwarded === "ask") effect.ask = reason ?? CLAUDE_ASK_REASON;
  }
  const updated = objectField(hso ?? {}, "updatedInput");
  if (updated && decision !== "defer") {
    // Claude Code applies a rewrite with allow, with ask, or with no decision at all; it replaces the input whole.
    effect.allow = true;
    effect.updatedInput = updated;
  }
  return done(effect);
}
