/**
 * SessionStart (SPEC §5, §8): matcher subject `source`; plain stdout or
 * additionalContext is context; `continue: false` stops the turn from starting
 * while the batch's context is kept for the next turn.
 * @module
 */
import type { EventModule } from "./types.ts";
import {
  aggregateStopOnly,
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

/** The SessionStart event. */
export const sessionStart: EventModule = {
  name: "SessionStart",
  matcher: { kind: "field", field: "source" },
  canBlock: false,
  plainStdout: "context",
  contextLimit: "context",
  timeout: STANDARD_TIMEOUT,
  asyncAllowed: true,
  mcpAllowed: true,
  envFile: true,
  spillsFeedback: false,
  stopGuard: null,
  endsSession: false,
  namesSkippedHooks: true,
  subagentTranscript: true,
  meaning: "a session starts or resumes; can add context",
  coverage: "client",
  control: "none",
  schemas: (z) => ({
    input: z.strictObject({
      ...commonInput(z, "SessionStart", { model: true }),
      permission_mode: z.enum(PERMISSION_MODES),
      source: z.enum(["startup", "resume", "clear", "compact"]),
    }),
    output: z.strictObject({
      ...commonOutput(z),
      hookSpecificOutput: contextOutput(z, "SessionStart").optional(),
    }),
    claudeOutput: claudeOutput(z),
  }),
  // Both dialects read the same fields here; the Claude one just ignores every other key.
  interpret(output) {
    const bad = checkEventName("SessionStart", output);
    if (bad) return fail(bad);
    return done({ ...informational(output), ...stopEffect(output) });
  },
  aggregate: aggregateStopOnly,
};
