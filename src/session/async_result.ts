/**
 * One async handler's completion → the `AsyncResult` delivered later (SPEC §7.2), shared by the
 * detached one-shot runner (`async.ts`) and `serve`'s in-process runner: read by the event's
 * protocol, informational output only, large context spilled with the handler's own limit (§10).
 * @module
 */
import type { AsyncJob } from "../runner/types.ts";
import type { AsyncResult } from "../schema/result.ts";
import { EVENTS } from "../events/registry.ts";
import { OUTPUT_SCHEMAS } from "../generated/schemas.ts";
import { readCompletion } from "../output/protocol.ts";
import { spillIfLarge } from "../output/spill.ts";
import type { RawCompletion } from "../runner/types.ts";

/** Builds the result of `job` from its raw completion; `spill` null = context kept as is. */
export async function asyncResultOf(
  job: AsyncJob,
  raw: RawCompletion,
  spill: { tempDir: string; sessionId: string } | null,
): Promise<AsyncResult> {
  // Informational output only (SPEC §7.2), read in the handler's dialect (a job written before
  // dialects existed is a mind one).
  const outcome = readCompletion(EVENTS[job.event], OUTPUT_SCHEMAS[job.event], raw, {
    async: true,
    dialect: job.dialect ?? "mind",
  });
  const failed = outcome.status === "failed";
  let additionalContext = failed ? null : outcome.effect.additionalContext ?? null;
  if (additionalContext !== null && spill) {
    additionalContext = (await spillIfLarge(additionalContext, { limit: job.additionalContextLimit, ...spill })).text;
  }
  return {
    key: job.key,
    event: job.event,
    status: outcome.status,
    reason: failed ? outcome.reason : null,
    systemMessage: failed ? null : outcome.effect.systemMessage ?? null,
    additionalContext,
  };
}
