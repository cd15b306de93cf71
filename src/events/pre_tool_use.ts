/**
 * PreToolUse (SPEC §5, §8, §9): matcher subject the tool name and its
 * aliases. `deny` needs a reason; `allow` only with `updatedInput`; legacy
 * `decision: "block"` means deny. `ask`, legacy `approve`, `continue: false`,
 * `stopReason` and `suppressOutput: true` fail the handler. Any deny blocks
 * with the first reason in configuration order; otherwise the `updatedInput`
 * of the handler that completed last wins whole.
 * @module
 */
import type { EventModule, HandlerEffect } from "./types.ts";
import { NO_DECISION } from "./types.ts";
import {
  checkEventName,
  commonInput,
  commonOutput,
  done,
  fail,
  hostMappings,
  informational,
  objectField,
  rejectUnsupportedCommon,
  STANDARD_TIMEOUT,
  stringField,
  toolInput,
} from "./common.ts";
import { HOST_UNKNOWN } from "./types.ts";

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
  spillsFeedback: false,
  stopGuard: null,
  endsSession: false,
  subagentTranscript: true,
  coverage: "tool",
  control: "tool-permission",
  hosts: hostMappings("PreToolUse", { gemini: "BeforeTool", copilot: "PreToolUse" }),
  hostPlaceholders: { tool_input: {}, tool_use_id: HOST_UNKNOWN },
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
  }),
  interpret(output) {
    const bad = checkEventName("PreToolUse", output) ??
      rejectUnsupportedCommon("PreToolUse", output);
    if (bad) return fail(bad);
    if (output.decision === "approve") {
      return fail(`PreToolUse hook returned unsupported decision "approve"`);
    }
    const hso = objectField(output, "hookSpecificOutput");
    const decision = stringField(hso, "permissionDecision");
    const effect: HandlerEffect = informational(output);
    if (decision === "ask") {
      return fail(
        `PreToolUse hook returned unsupported permissionDecision "ask"`,
      );
    }
    if (decision === "deny") {
      const reason = stringField(hso, "permissionDecisionReason");
      if (!reason?.trim()) {
        return fail(
          `permissionDecision "deny" needs a permissionDecisionReason — the tool call was not blocked`,
        );
      }
      effect.blockReason = reason;
    }
    const updated = objectField(hso ?? {}, "updatedInput");
    if (decision === "allow") {
      if (!updated) {
        return fail(
          `permissionDecision "allow" is supported only together with updatedInput — nothing was changed`,
        );
      }
      effect.allow = true;
      effect.updatedInput = updated;
    } else if (updated && decision !== "deny") {
      // With a deny the rewrite is moot: the deny stands (a deny that does not block is the worse failure).
      return fail(
        `updatedInput needs permissionDecision "allow" — the tool input was not changed`,
      );
    }
    if (output.decision === "block") {
      const reason = stringField(output, "reason");
      if (!reason?.trim()) {
        return fail(
          `PreToolUse hook returned decision "block" without a reason — the tool call was not blocked`,
        );
      }
      effect.blockReason ??= reason;
    }
    return done(effect);
  },
  aggregate(items) {
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
    return last ? { ...NO_DECISION, decision: "allow", updatedInput: last.input } : NO_DECISION;
  },
};
