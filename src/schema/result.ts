/**
 * The dispatch result (SPEC §9): the wire shape as a zod schema factory (the
 * single source of truth; the TypeScript type is inferred from it) and the
 * small constructors the dispatcher uses.
 * @module
 */
import type * as zod from "zod";
import type { Zod } from "../events/types.ts";
import { LAYERS } from "./handler.ts";

/** Builds the zod schema of one dispatch result. */
export function dispatchResultSchema(z: Zod) {
  const runRecord = z.strictObject({
    key: z.string(),
    // The layers of SPEC §2.1 and §2.8: the one list, from the handler shape.
    layer: z.enum(LAYERS),
    // (r3) `started`: an async handler that was started; its outcome comes later in `asyncResults` (SPEC §9).
    status: z.enum(["completed", "blocked", "failed", "skipped", "started"]),
    reason: z.string().nullable(),
    exit_code: z.int().nullable(),
    duration_ms: z.number().nullable(),
    statusMessage: z.string().nullable(),
  });
  const asyncResult = z.strictObject({
    key: z.string(),
    event: z.string(),
    status: z.enum(["completed", "blocked", "failed"]),
    reason: z.string().nullable(),
    systemMessage: z.string().nullable(),
    additionalContext: z.string().nullable(),
  });
  return z.strictObject({
    hook_event_name: z.string(),
    // "ask" (r3): only from a Claude-dialect PreToolUse hook (SPEC §8.1); a host that cannot ask denies.
    decision: z.enum(["allow", "ask", "deny", "block", "stop"]).nullable(),
    reason: z.string().nullable(),
    continue: z.boolean(),
    stopReason: z.string().nullable(),
    updatedInput: z.record(z.string(), z.unknown()).nullable(),
    continuationPrompt: z.string().nullable(),
    additionalContext: z.array(z.string()),
    systemMessages: z.array(z.string()),
    asyncResults: z.array(asyncResult),
    /** SessionStart on which a command handler ran: the session's env file (SPEC §7.1), else null. */
    envFile: z.string().nullable(),
    runs: z.array(runRecord),
    warnings: z.array(z.strictObject({
      code: z.string(),
      message: z.string(),
      source: z.string(),
      line: z.int().optional(),
      column: z.int().optional(),
      /** The value the warning is about, from the root of the file `source` names. */
      path: z.array(z.union([z.string(), z.int()])).optional(),
    })),
  });
}

/** One dispatch result (SPEC §9). */
export type DispatchResult = zod.infer<ReturnType<typeof dispatchResultSchema>>;
/** One entry of `runs`. */
export type RunRecord = DispatchResult["runs"][number];
/** One entry of `asyncResults`. */
export type AsyncResult = DispatchResult["asyncResults"][number];
