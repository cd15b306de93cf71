/**
 * PermissionRequest (SPEC §5, §8): matcher subject the tool name and its
 * aliases; `decision.behavior` allow or deny (+ message, default
 * `Blocked by hook.`); any deny wins; the reserved `updatedInput`,
 * `updatedPermissions`, `interrupt: true` and the unsupported common fields
 * fail the handler.
 * @module
 */
import type { EventModule, HandlerEffect } from "./types.ts";
import { NO_DECISION } from "./types.ts";
import {
  checkEventName,
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

/** The message used when a deny carries none. */
export const DEFAULT_DENY_MESSAGE = "Blocked by hook.";

/** The PermissionRequest event. */
export const permissionRequest: EventModule = {
  name: "PermissionRequest",
  matcher: { kind: "tool" },
  canBlock: true,
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
  meaning: "the agent asks to run a tool; can allow or deny it",
  coverage: "approval",
  control: "permission-request",
  schemas: (z) => ({
    input: z.strictObject({
      ...commonInput(z, "PermissionRequest", { model: true }),
      ...toolInput(z),
    }),
    output: z.strictObject({
      ...commonOutput(z),
      hookSpecificOutput: z.strictObject({
        hookEventName: z.literal("PermissionRequest"),
        decision: z.strictObject({
          behavior: z.enum(["allow", "deny"]),
          message: z.string().optional(),
          updatedInput: z.unknown().optional(),
          updatedPermissions: z.unknown().optional(),
          interrupt: z.boolean().optional(),
        }).optional(),
      }).optional(),
    }),
    claudeOutput: claudeOutput(z, {
      decision: z.looseObject({ behavior: z.enum(["allow", "deny"]), message: z.string().optional() }).optional(),
    }),
  }),
  interpret(output, dialect) {
    const bad = checkEventName("PermissionRequest", output) ??
      (dialect === "mind" ? rejectUnsupportedCommon("PermissionRequest", output) : null);
    if (bad) return fail(bad);
    const decision = objectField(
      objectField(output, "hookSpecificOutput") ?? {},
      "decision",
    );
    // The Claude dialect ignores what mind cannot apply here (updatedInput, updatedPermissions, interrupt).
    const effect: HandlerEffect = dialect === "claude"
      ? { ...informational(output), ...stopEffect(output) }
      : informational(output);
    if (!decision) return done(effect);
    for (const reserved of dialect === "claude" ? [] : ["updatedInput", "updatedPermissions"]) {
      if (decision[reserved] !== undefined) {
        return fail(
          `PermissionRequest hook returned reserved field ${reserved}`,
        );
      }
    }
    if (decision.interrupt === true && dialect === "mind") {
      return fail(`PermissionRequest hook returned reserved interrupt: true`);
    }
    if (decision.behavior === "deny") {
      const message = stringField(decision, "message");
      effect.blockReason = message?.trim() ? message : DEFAULT_DENY_MESSAGE;
    } else {
      effect.allow = true;
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
    return items.some((i) => i.effect.allow) ? { ...NO_DECISION, decision: "allow" } : NO_DECISION;
  },
};
