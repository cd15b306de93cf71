/**
 * What a dispatch answers when the engine itself fails after its handlers ran (SPEC §15: "when the
 * engine itself fails internally during dispatch, any deny already decided is still returned").
 *
 * The handlers' effects are known once they completed; everything after that (spilling, the Stop
 * loop guard, format conversion, session end, logging) is the engine's own work and may fail. Then
 * the dispatch does not crash — a crash reads as "no hooks ran" to the host, which would let a
 * denied tool call through — but answers from the effects alone: every deny, ask, block and stop stands,
 * allows that need no conversion stand, and a rewrite that cannot be delivered denies the call
 * rather than let it run unrewritten. Model-visible context is dropped (it cannot be spilled).
 * @module
 */
import type { JsonObject } from "../util/json.ts";
import type { AggregationItem, EventDecision, EventModule } from "../events/types.ts";
import { NO_DECISION } from "../events/types.ts";
import type { EventName } from "../events/names.ts";
import { EVENTS } from "../events/registry.ts";
import type { AnyCatalog } from "../config/discovery.ts";
import type { DispatchResult } from "../schema/result.ts";
import { deliveredRewrite, effectItems } from "./fold.ts";
import { logDispatch, resultOf } from "./finish.ts";
import type { Dispatching, EventInput, Settled } from "./types.ts";
import { closingLines, settledFacts, systemMessages } from "./messages.ts";

export { ENGINE_FAILED } from "./messages.ts";

/** The failure reason of a handler whose run or output made the engine itself fail (SPEC §15: handlers are isolated). */
export const HANDLER_INTERNAL_ERROR = "mind-hooks failed internally while running this hook or reading its output";

/** The deny reason when a hook's rewrite of the tool call could not be delivered. */
export const REWRITE_LOST =
  "a hook rewrote this tool call, but mind-hooks failed internally before it could deliver the rewrite; the call is blocked rather than run unrewritten";

/** Without a spill file, a reason longer than this is cut (the model still sees its head). */
export const FAIL_SAFE_TEXT_MAX = 16_000;

function bounded(text: string | null): string | null {
  return text !== null && text.length > FAIL_SAFE_TEXT_MAX ? text.slice(0, FAIL_SAFE_TEXT_MAX) + "…" : text;
}

/**
 * The blocking part of `items` folded without the event's own aggregator (for when that is what
 * failed): the first block reason denies; on Stop-like events all reasons form the continuation
 * prompt; a `continue: false` stops.
 */
export function blockingFold(event: EventName, items: readonly AggregationItem[]): EventDecision {
  const stop = items.find((i) => i.effect.stop);
  if (stop) {
    const stopReason = stop.effect.stopReason ?? null;
    return { ...NO_DECISION, decision: "stop", continue: false, stopReason, reason: stopReason };
  }
  const reasons = items.flatMap((i) => i.effect.blockReason !== undefined ? [i.effect.blockReason] : []);
  const { control } = EVENTS[event];
  // An ask (SPEC §8.1 r3) stands when nothing denies: a host that cannot ask denies it itself.
  const ask = items.find((i) => i.effect.ask !== undefined);
  if (reasons.length === 0 && ask && control === "tool-permission") {
    return { ...NO_DECISION, decision: "ask", reason: ask.effect.ask! };
  }
  if (reasons.length === 0) return NO_DECISION;
  if (control === "tool-permission" || control === "permission-request") {
    return { ...NO_DECISION, decision: "deny", reason: reasons[0] };
  }
  const joined = reasons.join("\n\n");
  return {
    ...NO_DECISION,
    decision: "block",
    reason: joined,
    continuationPrompt: control === "continuation" ? joined : null,
  };
}

/**
 * The decision of a dispatch whose finishing failed. `deliverRewrite` turns an `updatedInput` into
 * the host's form (it may be what failed: then the call is denied with {@link REWRITE_LOST}).
 * Never throws.
 */
export function failSafeDecision(
  module: EventModule,
  items: readonly AggregationItem[],
  deliverRewrite: (updated: JsonObject) => JsonObject,
): EventDecision {
  let d: EventDecision;
  try {
    d = module.aggregate([...items]);
  } catch {
    d = blockingFold(module.name, items);
  }
  if (d.updatedInput !== null) {
    try {
      return { ...d, updatedInput: deliverRewrite(d.updatedInput) };
    } catch {
      return { ...NO_DECISION, decision: "deny", reason: REWRITE_LOST };
    }
  }
  return {
    ...d,
    reason: bounded(d.reason),
    stopReason: bounded(d.stopReason),
    continuationPrompt: bounded(d.continuationPrompt),
  };
}

/**
 * The answer of a dispatch whose finishing failed: the {@link failSafeDecision}, and the messages a
 * normal dispatch would give (what can still be said of them) with the engine-failure line last.
 */
export async function failSafeResult(
  ev: EventInput,
  catalog: AnyCatalog,
  d: Dispatching,
  s: Settled,
): Promise<DispatchResult> {
  const module = EVENTS[ev.event];
  const { runs, envFile } = s.ran;
  const decision = failSafeDecision(module, effectItems(module, runs), (updated) => deliveredRewrite(ev, updated));
  const closing = await closingLines(ev, catalog, module, runs, d, true);
  // The loop guard's block is not ignored here (no stopLoop line): its line would say it was.
  const messages = systemMessages({ ...settledFacts(s, module), closing, engineFailed: true });
  const { asyncResults, warnings } = s;
  const out = resultOf(ev.event, {
    decision,
    additionalContext: [],
    systemMessages: messages,
    asyncResults,
    envFile,
    runs,
    warnings,
  });
  await logDispatch(catalog, out, String(ev.input.session_id), d).catch(() => {});
  return out;
}
