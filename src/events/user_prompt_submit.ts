/**
 * UserPromptSubmit (SPEC §5, §8): no matcher; plain stdout or
 * additionalContext is context; `decision: "block"` + reason (or exit 2 with
 * stderr) blocks the prompt, and the batch's additionalContext is kept.
 * @module
 */
import type { EventModule } from "./types.ts";
import {
  aggregateStopOnly,
  blockDecision,
  checkEventName,
  claudeOutput,
  commonInput,
  commonOutput,
  contextOutput,
  done,
  fail,
  informational,
  PERMISSION_MODES,
  STANDARD_TIMEOUT,
  stopEffect,
} from "./common.ts";

/** The UserPromptSubmit event. */
export const userPromptSubmit: EventModule = {
  name: "UserPromptSubmit",
  matcher: { kind: "none" },
  canBlock: true,
  plainStdout: "context",
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
  meaning: "the user sent a prompt; can block it or add context",
  coverage: "client",
  control: "block",
  schemas: (z) => ({
    input: z.strictObject({
      ...commonInput(z, "UserPromptSubmit", { model: true }),
      turn_id: z.string(),
      permission_mode: z.enum(PERMISSION_MODES),
      prompt: z.string(),
    }),
    output: z.strictObject({
      ...commonOutput(z),
      decision: z.literal("block").optional(),
      reason: z.string().optional(),
      hookSpecificOutput: contextOutput(z, "UserPromptSubmit").optional(),
    }),
    claudeOutput: claudeOutput(z),
  }),
  interpret(output, dialect) {
    const bad = checkEventName("UserPromptSubmit", output);
    if (bad) return fail(bad);
    const block = blockDecision("UserPromptSubmit", output, dialect);
    if (!block.ok) return fail(block.error);
    return done({
      ...informational(output),
      ...stopEffect(output),
      ...(block.value !== null ? { blockReason: block.value } : {}),
    });
  },
  aggregate(items) {
    const stopped = aggregateStopOnly(items);
    const block = items.find((i) => i.effect.blockReason !== undefined);
    if (!block) return stopped;
    // A block and another handler's `continue: false`: the prompt is blocked and the turn stops (§9).
    return { ...stopped, decision: "block", reason: block.effect.blockReason! };
  },
};
