/**
 * The fold stage of a dispatch (SPEC §8–§10): the completed runs' effects, in configuration order,
 * aggregated by the event into one decision; large context and reasons spilled; Claude Code's
 * `continue: false` and the Stop loop guard applied. The engine's own work: it may fail, and then
 * the fail-safe answers (fail_safe.ts).
 * @module
 */
import type { AnyCatalog, HookHandler } from "../config/discovery.ts";
import { DEFAULT_CONTEXT_LIMIT, runsAsync } from "../config/handlers.ts";
import { handlerModule } from "../config/handler_types/registry.ts";
import { type Warning, warning } from "../config/warnings.ts";
import { EVENTS } from "../events/registry.ts";
import type { AggregationItem, EventDecision, EventModule, HandlerEffect, HandlerOutcome } from "../events/types.ts";
import type { JsonObject } from "../util/json.ts";
import { fromCompatInput } from "../matching/tool_names.ts";
import type { Dispatching, EventInput, Folded, HandlerRun, HostHints } from "./types.ts";
import { noHostHints } from "./types.ts";

/** The reason a failed `failClosed` handler blocks with (SPEC §2.2). */
export function failClosedReason(key: string, why: string): string {
  return `hook ${key} failed (failClosed): ${why}`;
}

/**
 * The effect a handler's outcome has on the decision: a completed one's own effect; a failed one's
 * none — unless it is `failClosed` on an event that can block, where its failure blocks (SPEC §2.2).
 */
export function effectOf(module: EventModule, h: HookHandler, outcome: HandlerOutcome): HandlerEffect | null {
  if (outcome.status !== "failed") return outcome.effect;
  if (h.handler.failClosed !== true || !module.canBlock || runsAsync(h)) return null;
  return { blockReason: failClosedReason(h.key, outcome.reason) };
}

/**
 * The effect of one run: its outcome's ({@link effectOf}); for a guard trusted as `failClosed` that was
 * skipped because it changed, a block where the event can block (SPEC §3.5 r4); else none.
 */
export function runEffect(module: EventModule, r: HandlerRun): HandlerEffect | null {
  if (r.outcome) return effectOf(module, r.handler, r.outcome);
  if (r.verdict.runs || r.verdict.changedGuard === null || !module.canBlock) return null;
  return { blockReason: r.verdict.changedGuard };
}

/** The effects of the runs' outcomes as aggregation items, in configuration order. */
export function effectItems(module: EventModule, runs: readonly HandlerRun[]): AggregationItem[] {
  return runs.flatMap((r, order) => {
    const effect = runEffect(module, r);
    return effect ? [{ order, completedSeq: r.completedSeq, effect }] : [];
  });
}

/** A tool event's rewrite in the host's form (SPEC §5: hooks see the compatibility form). */
export function deliveredRewrite(ev: EventInput, updated: JsonObject): JsonObject {
  if (EVENTS[ev.event].matcher.kind !== "tool") return updated;
  return fromCompatInput(String(ev.input.tool_name), ev.input.tool_input as JsonObject, updated);
}

/** Spills large outputs of one dispatch, and says once when it could not (SPEC §10). */
export type Spiller = {
  spill(text: string, limit: number): Promise<string>;
  /** The one `W_SPILL_REFUSED` of this dispatch, once said. */
  readonly warnings: Warning[];
};

/** A {@link Spiller} for this dispatch's session. */
export function spillerOf(d: Dispatching, sessionId: string): Spiller {
  const warnings: Warning[] = [];
  return {
    warnings,
    async spill(text, limit) {
      const { spillIfLarge } = await import("./runtime.ts");
      const r = await spillIfLarge(text, { limit, tempDir: d.tempDir, sessionId });
      if (r.refused !== null && warnings.length === 0) {
        // One warning per dispatch, however many outputs were cut (SPEC §10: preview, no path).
        warnings.push(
          warning("W_SPILL_REFUSED", `${r.refused}: large outputs are cut to a preview and not saved`, d.tempDir),
        );
      }
      return r.text;
    },
  };
}

/**
 * The fold stage: the runs' effects into the event's one decision (SPEC §9). `tempDir` holds the
 * Stop guard's fallback counters (SPEC §6 r4).
 */
export async function fold(
  ev: EventInput,
  catalog: AnyCatalog,
  runs: readonly HandlerRun[],
  spiller: Spiller,
  tempDir: string,
): Promise<Folded> {
  const module = EVENTS[ev.event];
  const { items, additionalContext } = await spilledItems(module, runs, spiller);
  const aggregated = withStop(module.aggregate(items), items);
  let decision = aggregated;
  if (decision.updatedInput && module.matcher.kind === "tool") {
    decision = { ...decision, updatedInput: deliveredRewrite(ev, decision.updatedInput) };
  }
  if (module.spillsFeedback && decision.reason !== null) {
    decision = { ...decision, reason: await spiller.spill(decision.reason, DEFAULT_CONTEXT_LIMIT) };
  }
  const guarded = await stopGuard(ev, catalog, tempDir, decision);
  return {
    decision: guarded.decision,
    additionalContext,
    warnings: [...spiller.warnings, ...guarded.warnings],
    stopLoop: guarded.lines,
    hostHints: hostHintsOf(aggregated, items, runs),
  };
}

/** The items of the completed runs, in configuration order, with their context and continuation spilled. */
async function spilledItems(
  module: EventModule,
  runs: readonly HandlerRun[],
  spiller: Spiller,
): Promise<{ items: AggregationItem[]; additionalContext: string[] }> {
  const items: AggregationItem[] = [];
  const additionalContext: string[] = [];
  for (const [order, r] of runs.entries()) {
    const own = runEffect(module, r);
    if (!own) continue;
    const effect = { ...own };
    if (module.contextLimit === "continuation" && effect.blockReason !== undefined) {
      // Seed 000: additionalContextLimit also bounds the continuation prompt.
      effect.blockReason = await spiller.spill(effect.blockReason, limitOf(r.handler));
    }
    items.push({ order, completedSeq: r.completedSeq, effect });
    if (effect.additionalContext !== undefined && module.contextLimit === "context") {
      additionalContext.push(await spiller.spill(effect.additionalContext, limitOf(r.handler)));
    }
  }
  return { items, additionalContext };
}

function limitOf(h: HookHandler): number {
  return handlerModule(h.handler).contextLimit(h.handler);
}

/**
 * The Stop loop guard (SPEC §10): a Stop-like event blocked more times in a row than the cap is let
 * end. It counts in the home: without one (SPEC §1 r3) nothing is counted. When the home cannot
 * count, the guard's fallback does, said as `W_STOP_GUARD_UNAVAILABLE` (SPEC §6 r4).
 */
async function stopGuard(
  ev: EventInput,
  catalog: AnyCatalog,
  tempDir: string,
  decision: EventDecision,
): Promise<{ decision: EventDecision; warnings: Warning[]; lines: string[] }> {
  const module = EVENTS[ev.event];
  if (!module.stopGuard || catalog.home === null) return { decision, warnings: [], lines: [] };
  const counterKey = module.stopGuard(ev.input);
  const { recordStopDispatch } = await import("./runtime.ts");
  const cap = catalog.stopBlockCap;
  const sessionId = String(ev.input.session_id);
  const blocked = decision.decision === "block";
  const guard = await recordStopDispatch(catalog.home, tempDir, sessionId, counterKey, blocked, cap);
  const warnings: Warning[] = [];
  const lines: string[] = [];
  if (guard.unavailable !== null) {
    warnings.push(warning("W_STOP_GUARD_UNAVAILABLE", guard.unavailable.line, counterKey));
    lines.push(guard.unavailable.line);
  }
  if (guard.allowed) return { decision, warnings, lines };
  const event = ev.event;
  warnings.push(warning(
    "W_STOP_LOOP_CAP",
    `${event} blocked ${guard.count} times in a row (cap ${cap}); this block is ignored`,
    counterKey,
  ));
  lines.push(
    `${event} hooks blocked ${guard.count} times in a row; the block was ignored to end the loop (hooks.stop_block_cap = ${cap})`,
  );
  return { decision: { ...decision, decision: null, reason: null, continuationPrompt: null }, warnings, lines };
}

/**
 * Claude Code's `continue: false` stops the turn from any event (SPEC §8.1): an event whose own
 * aggregation has no stop (PreToolUse, PermissionRequest, …) still answers `continue: false`.
 */
function withStop(decision: EventDecision, items: readonly AggregationItem[]): EventDecision {
  if (!decision.continue) return decision;
  const stop = items.find((i) => i.effect.stop);
  return stop ? { ...decision, continue: false, stopReason: stop.effect.stopReason ?? null } : decision;
}

/** The host hints of a decided dispatch (see {@link HostHints}). */
function hostHintsOf(
  decision: EventDecision,
  items: readonly AggregationItem[],
  runs: readonly HandlerRun[],
): HostHints {
  const hints = noHostHints();
  if (decision.decision === "deny") return hints;
  const forwarded = items.find((i) => i.effect.forwardedDecision === "ask") ??
    items.find((i) => i.effect.forwardedDecision === "allow");
  if (forwarded) {
    hints.permissionDecision = forwarded.effect.forwardedDecision!;
    hints.permissionDecisionReason = forwarded.effect.forwardedReason ?? null;
  }
  const rewrite = items.find((i) =>
    i.effect.updatedInput !== undefined && i.effect.updatedInput === decision.updatedInput
  );
  hints.wholeRewrite = rewrite !== undefined && runs[rewrite.order].handler.dialect !== "mind";
  return hints;
}
