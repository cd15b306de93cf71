/**
 * The finish stage of a dispatch (SPEC §9, §10): the one result assembled from what the stages
 * decided, the session ended after a SessionEnd, the observation log written.
 * @module
 */
import type { AnyCatalog } from "../config/discovery.ts";
import { homelessLine } from "../config/warnings.ts";
import type { EventName } from "../events/names.ts";
import { EVENTS } from "../events/registry.ts";
import { NO_DECISION } from "../events/types.ts";
import { appendLog, dispatchLogEntries } from "../log/observation.ts";
import type { AsyncResult, DispatchResult } from "../schema/result.ts";
import type { Dispatching, EventInput, Folded, Outcome, Settled } from "./types.ts";
import { quietFacts, systemMessages } from "./messages.ts";

/** A result with nothing decided: every field present, empty. */
export function emptyResult(event: EventName, warnings: DispatchResult["warnings"]): DispatchResult {
  return {
    hook_event_name: event,
    ...NO_DECISION,
    additionalContext: [],
    systemMessages: [],
    asyncResults: [],
    envFile: null,
    runs: [],
    warnings,
  };
}

/** The outcome of a dispatch that finished normally: the fold's decision and the ordered messages. */
export function outcomeOf(s: Settled, folded: Folded, systemMessages: readonly string[]): Outcome {
  return {
    decision: folded.decision,
    additionalContext: folded.additionalContext,
    systemMessages,
    asyncResults: s.asyncResults,
    envFile: s.ran.envFile,
    runs: s.ran.runs,
    warnings: [...s.warnings, ...folded.warnings],
  };
}

/** The SPEC §9 result of an outcome (its fields in the one order `emptyResult` gives them). */
export function resultOf(event: EventName, o: Outcome): DispatchResult {
  return {
    ...emptyResult(event, [...o.warnings]),
    ...o.decision,
    additionalContext: [...o.additionalContext],
    systemMessages: [...o.systemMessages],
    asyncResults: [...o.asyncResults],
    envFile: o.envFile,
    runs: o.runs.map((r) => r.record),
  };
}

/** The result of a dispatch with hooks turned off (SPEC §2.4): nothing ran; only a missing home is said. */
export function hooksOffResult(
  ev: EventInput,
  catalog: AnyCatalog,
  asyncResults: readonly AsyncResult[],
): DispatchResult {
  return resultOf(ev.event, {
    decision: NO_DECISION,
    additionalContext: [],
    systemMessages: systemMessages({
      ...quietFacts(EVENTS[ev.event]),
      noHome: homelessLine(catalog.home, catalog.warnings),
    }),
    asyncResults,
    envFile: null,
    runs: [],
    warnings: [...catalog.warnings, ...ev.warnings],
  });
}

/** The finish stage: ends the session after a SessionEnd (its hooks ran), then logs the result. */
export async function finish(
  ev: EventInput,
  catalog: AnyCatalog,
  d: Dispatching,
  result: DispatchResult,
): Promise<DispatchResult> {
  if (EVENTS[ev.event].endsSession) {
    // After the SessionEnd hooks ran (synchronously): kill leftovers, drop spilled files.
    const { endSession } = await import("../session/end.ts");
    await endSession(catalog.home, d.tempDir, String(ev.input.session_id));
  }
  await logDispatch(catalog, result, String(ev.input.session_id), d);
  return result;
}

/** Appends the dispatch to the observation log; without a home nothing is written (SPEC §1 r3). */
export async function logDispatch(
  catalog: AnyCatalog,
  result: DispatchResult,
  sessionId: string,
  d: Dispatching,
): Promise<void> {
  if (d.io.log === false || catalog.home === null) return;
  await appendLog(catalog.home, dispatchLogEntries(result, sessionId));
}
