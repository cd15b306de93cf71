/**
 * The dispatch pipeline (SPEC §6–§9): catalog → handlers of the event →
 * matcher → trust/enabled → run (concurrently) → read each completion by the
 * event's protocol → aggregate → spill → one result.
 * @module
 */
import type { EventName } from "../events/names.ts";
import { EVENTS } from "../events/registry.ts";
import { type AggregationItem, type HandlerOutcome, type JsonObject, NO_DECISION } from "../events/types.ts";
import type { JsonSchema } from "../schema/validate.ts";
import { type Catalog, type HookHandler, skipReason } from "../config/discovery.ts";
import { warning } from "../config/warnings.ts";
import { fromCompatInput } from "../matching/tool_names.ts";
import { matchingHandlers } from "./matching.ts";
import type { AsyncJob, CommandSpec, RawCompletion } from "../runner/types.ts";
import { DEFAULT_CONTEXT_LIMIT } from "../config/handlers.ts";
import { ENGINE_FAILED, failSafeDecision, HANDLER_INTERNAL_ERROR } from "./fail_safe.ts";

/** The lazily loaded part of dispatch. */
type Runtime = typeof import("./runtime.ts");
import { appendLog, dispatchLogEntries } from "../log/observation.ts";
import { type EventInput, hookInputFor } from "./input.ts";
import type { AsyncResult, DispatchResult, RunRecord } from "../schema/result.ts";
import type { TraceSink } from "./trace.ts";

/** Per-invocation settings of a dispatch beyond the catalog. */
export type DispatchContext = {
  /** Root of spilled outputs (`--temp-dir`). */
  tempDir: string;
  /** Runs an mcp_tool handler; absent = the one-shot runner (Streamable HTTP only). */
  runMcp?: (
    h: HookHandler,
    hookInput: JsonObject,
    catalog: Catalog,
  ) => Promise<RawCompletion>;
  /** Starts async handlers; absent = the detached one-shot runner. */
  startAsync?: (jobs: AsyncJob[], sessionId: string) => Promise<void>;
  /** Takes the async results waiting for this session. */
  takeAsync?: (sessionId: string) => Promise<AsyncResult[]>;
  /** Write the observation log (default true). */
  log?: boolean;
  /** Records why each handler ran or not (`dispatch --explain`); absent, nothing is recorded. */
  trace?: TraceSink;
};

/** The environment additions a handler's command gets (SPEC §7.1, §2.6). */
export function handlerEnv(
  h: HookHandler,
  event: EventName,
  catalog: Catalog,
  cwd: string,
): Record<string, string> {
  const env: Record<string, string> = { MIND_HOOK_EVENT: event, ...h.env };
  if (catalog.project) env.MIND_PROJECT_DIR = catalog.project.root;
  // Hooks written for Claude Code read CLAUDE_PROJECT_DIR; give them the same answer.
  env.CLAUDE_PROJECT_DIR = catalog.project?.root ?? cwd;
  return env;
}

/** A result with nothing decided: every field present, empty. */
export function emptyResult(event: EventName, warnings: DispatchResult["warnings"]): DispatchResult {
  return {
    hook_event_name: event,
    ...NO_DECISION,
    additionalContext: [],
    systemMessages: [],
    asyncResults: [],
    runs: [],
    warnings,
  };
}

async function runOne(
  rt: Runtime,
  h: HookHandler,
  event: EventName,
  hookInput: JsonObject,
  stdin: string,
  catalog: Catalog,
  ctx: DispatchContext,
  cwd: string,
): Promise<RawCompletion> {
  if (h.handler.type === "mcp_tool") {
    const run = ctx.runMcp ?? (await import("../runner/mcp.ts")).runMcpOneShot;
    return await run(h, hookInput, catalog);
  }
  if (h.plugin) {
    await Deno.mkdir(h.env.PLUGIN_DATA, { recursive: true }).catch(() => {});
  }
  return await rt.runCommand(commandSpecOf(h, event, catalog, cwd, stdin));
}

/** What runs for a command handler (SPEC §7.1), synchronously or as an async job. */
function commandSpecOf(h: HookHandler, event: EventName, catalog: Catalog, cwd: string, stdin: string): CommandSpec {
  if (h.handler.type !== "command") throw new Error(`${h.key} is not a command handler`);
  return {
    command: h.handler.command,
    commandWindows: h.handler.commandWindows,
    cwd,
    stdin,
    env: handlerEnv(h, event, catalog, cwd),
    timeoutSec: h.handler.timeout,
  };
}

function limitOf(h: HookHandler): number {
  return h.handler.type === "command" ? h.handler.additionalContextLimit : DEFAULT_CONTEXT_LIMIT;
}

/** Dispatches one validated event against a loaded catalog. */
export async function dispatchEvent(
  ev: EventInput,
  catalog: Catalog,
  ctx: DispatchContext,
): Promise<DispatchResult> {
  const { event, input } = ev;
  const sessionId = String(input.session_id);
  const result = emptyResult(event, [...catalog.warnings, ...ev.warnings]);
  // Loaded only when something will run or the Stop loop guard must count.
  let runtime: Runtime | null = null;
  const rt = async () => runtime ??= await import("./runtime.ts");
  let spillRefused = false;
  const spill = async (text: string, limit: number) => {
    const r = await (await rt()).spillIfLarge(text, { limit, tempDir: ctx.tempDir, sessionId });
    if (r.refused !== null && !spillRefused) {
      // One warning per dispatch, however many outputs were cut (SPEC §10: preview, no path).
      spillRefused = true;
      result.warnings.push(
        warning("W_SPILL_REFUSED", `${r.refused}: large outputs are cut to a preview and not saved`, ctx.tempDir),
      );
    }
    return r;
  };

  if (ctx.takeAsync) {
    // Async runners spill each result with its handler's limit before storing it (SPEC §10).
    result.asyncResults.push(...await ctx.takeAsync(sessionId));
  }
  const module = EVENTS[event];
  ctx.trace?.catalog(catalog, event);
  if (!catalog.hooksEnabled) {
    if (module.endsSession) {
      await (await import("../session/end.ts")).endSession(catalog.home, ctx.tempDir, sessionId);
    }
    await logDispatch(catalog, result, sessionId, ctx);
    return result;
  }

  const { handlers: matched, warnings: matchWarnings } = await matchingHandlers(catalog, event, input, ctx.trace);
  result.warnings.push(...matchWarnings);
  const hookInput = hookInputFor(event, input);
  const stdin = JSON.stringify(hookInput);
  const cwd = String(input.cwd);

  const records: RunRecord[] = matched.map((h) => ({
    key: h.key,
    layer: h.layer,
    status: "skipped",
    reason: null,
    exit_code: null,
    duration_ms: null,
    statusMessage: h.handler.statusMessage ?? null,
  }));
  const outcomes: (HandlerOutcome | null)[] = matched.map(() => null);
  const completedSeq: number[] = matched.map(() => 0);
  let seq = 0;
  let needReview = 0;
  const asyncJobs: AsyncJob[] = [];
  const running: Promise<void>[] = [];

  matched.forEach((h, i) => {
    const skip = skipReason(h, catalog.bypassTrust);
    if (skip) {
      ctx.trace?.skip(h, skip);
      records[i].reason = skip;
      if (skip !== "disabled") needReview++;
      return;
    }
    if (h.handler.type === "command" && h.handler.async) {
      records[i].status = "started";
      records[i].reason = "async";
      ctx.trace?.started(h);
      asyncJobs.push({
        ...commandSpecOf(h, event, catalog, cwd, stdin),
        key: h.key,
        event,
        additionalContextLimit: h.handler.additionalContextLimit,
        tempDir: ctx.tempDir,
      });
      return;
    }
    running.push((async () => {
      const started = performance.now();
      let outcome: HandlerOutcome;
      try {
        const r = await rt();
        const raw = await runOne(r, h, event, hookInput, stdin, catalog, ctx, cwd);
        outcome = r.readCompletion(module, r.OUTPUT_SCHEMAS[event] as JsonSchema, raw);
        records[i].exit_code = raw.exitCode;
        records[i].duration_ms = Math.round(raw.durationMs);
        ctx.trace?.run(h, module, raw, outcome, records[i].duration_ms);
      } catch {
        // Every handler is isolated (SPEC §15): the engine failing on one is that handler's failure.
        outcome = { status: "failed", reason: HANDLER_INTERNAL_ERROR };
        records[i].duration_ms = Math.round(performance.now() - started);
        ctx.trace?.run(h, module, null, outcome, records[i].duration_ms);
      }
      completedSeq[i] = ++seq;
      outcomes[i] = outcome;
      records[i].status = outcome.status;
      if (outcome.status === "failed") records[i].reason = outcome.reason;
    })());
  });
  // Async plugin hooks get their PLUGIN_DATA too (the sync path creates it in runOne).
  await Promise.all(
    matched.filter((h, i) => h.plugin && records[i].status === "started")
      .map((h) => Deno.mkdir(h.env.PLUGIN_DATA, { recursive: true }).catch(() => {})),
  );
  if (asyncJobs.length > 0) {
    const start = ctx.startAsync ??
      (await import("../session/async.ts")).startDetachedAsync(catalog.home);
    running.push(
      Promise.resolve().then(() => start(asyncJobs, sessionId)).catch((e) => {
        result.systemMessages.push(
          `async hooks could not be started: ${e instanceof Error ? e.message : String(e)}`,
        );
      }),
    );
  }
  await Promise.all(running);
  result.runs = records;

  // From here on the handlers' effects are known: an internal failure must not lose a deny (SPEC §15).
  const early = [...result.systemMessages];
  try {
    return await finish({ ev, catalog, ctx, result, matched, outcomes, completedSeq, needReview, spill, rt });
  } catch {
    const safe = failSafeDecision(module, effectItems(outcomes, completedSeq), (updated) => {
      if (module.matcher.kind !== "tool") return updated;
      return fromCompatInput(String(input.tool_name), input.tool_input as JsonObject, updated);
    });
    const out: DispatchResult = {
      ...emptyResult(event, result.warnings),
      ...safe,
      systemMessages: [...early, ...failureLines(matched, outcomes), ...reviewLines(needReview), ENGINE_FAILED],
      asyncResults: result.asyncResults,
      runs: records,
    };
    await logDispatch(catalog, out, sessionId, ctx).catch(() => {});
    return out;
  }
}

/** The completed (non-failed) outcomes as aggregation items, in configuration order. */
function effectItems(outcomes: readonly (HandlerOutcome | null)[], completedSeq: readonly number[]): AggregationItem[] {
  const items: AggregationItem[] = [];
  outcomes.forEach((o, i) => {
    if (o && o.status !== "failed") items.push({ order: i, completedSeq: completedSeq[i], effect: o.effect });
  });
  return items;
}

/** The "N hooks need review" line, when any matched hook was skipped for trust (SPEC §6). */
function reviewLines(needReview: number): string[] {
  if (needReview === 0) return [];
  return [
    `${needReview} hook${needReview === 1 ? "" : "s"} need${needReview === 1 ? "s" : ""} review: run mind-hooks review`,
  ];
}

/** The system message line of a failed handler (SPEC §8: a failure is never silent). */
function failureLine(h: HookHandler, o: { reason: string; systemMessage?: string }): string {
  return `hook ${h.key} failed: ${o.reason}${o.systemMessage ? ` (${o.systemMessage})` : ""}`;
}

/** One {@link failureLine} per failed handler, in configuration order. */
function failureLines(matched: readonly HookHandler[], outcomes: readonly (HandlerOutcome | null)[]): string[] {
  return outcomes.flatMap((o, i) => o?.status === "failed" ? [failureLine(matched[i], o)] : []);
}

/** What {@link finish} works on: the dispatch once every handler completed. */
type Finishing = {
  ev: EventInput;
  catalog: Catalog;
  ctx: DispatchContext;
  result: DispatchResult;
  matched: HookHandler[];
  outcomes: (HandlerOutcome | null)[];
  completedSeq: number[];
  needReview: number;
  spill: (text: string, limit: number) => Promise<{ text: string }>;
  rt: () => Promise<Runtime>;
};

/** Aggregates, spills, applies the Stop loop guard, ends the session and logs: the engine's own work. */
async function finish(f: Finishing): Promise<DispatchResult> {
  const { ev: { event, input }, catalog, ctx, result, matched, outcomes, completedSeq, needReview, spill, rt } = f;
  const sessionId = String(input.session_id);
  const module = EVENTS[event];
  // Read outcomes in configuration order.
  const items: AggregationItem[] = [];
  for (let i = 0; i < matched.length; i++) {
    const outcome = outcomes[i];
    if (!outcome) continue;
    if (outcome.status === "failed") {
      result.systemMessages.push(failureLine(matched[i], outcome));
      continue;
    }
    const effect = { ...outcome.effect };
    if (effect.systemMessage) result.systemMessages.push(effect.systemMessage);
    if (module.contextLimit === "continuation" && effect.blockReason !== undefined) {
      // Seed 000: additionalContextLimit also bounds the continuation prompt.
      effect.blockReason = (await spill(effect.blockReason, limitOf(matched[i]))).text;
    }
    items.push({ order: i, completedSeq: completedSeq[i], effect });
    if (effect.additionalContext !== undefined && module.contextLimit === "context") {
      result.additionalContext.push(
        (await spill(effect.additionalContext, limitOf(matched[i]))).text,
      );
    }
  }

  const decision = module.aggregate(items);
  Object.assign(result, decision);
  if (decision.updatedInput && module.matcher.kind === "tool") {
    result.updatedInput = fromCompatInput(
      String(input.tool_name),
      input.tool_input as JsonObject,
      decision.updatedInput,
    );
  }
  if (module.spillsFeedback && result.reason !== null) {
    result.reason = (await spill(result.reason, DEFAULT_CONTEXT_LIMIT)).text;
  }
  if (module.stopGuard) {
    const counterKey = module.stopGuard(input);
    const guard = await (await rt()).recordStopDispatch(
      catalog.home,
      sessionId,
      counterKey,
      decision.decision === "block",
      catalog.stopBlockCap,
    );
    if (!guard.allowed) {
      result.warnings.push(
        warning(
          "W_STOP_LOOP_CAP",
          `${event} blocked ${guard.count} times in a row (cap ${catalog.stopBlockCap}); this block is ignored`,
          counterKey,
        ),
      );
      result.systemMessages.push(
        `${event} hooks blocked ${guard.count} times in a row; the block was ignored to end the loop (hooks.stop_block_cap = ${catalog.stopBlockCap})`,
      );
      result.decision = null;
      result.reason = null;
      result.continuationPrompt = null;
    }
  }
  if (catalog.project && !catalog.project.trusted && catalog.project.hasHookFiles) {
    // Never silent: the repository has hooks that cannot run until the project is trusted.
    result.systemMessages.push(
      `project ${catalog.project.root} has hooks but is not trusted: run mind-hooks project trust ${catalog.project.root}`,
    );
  }
  result.systemMessages.push(...reviewLines(needReview));
  if (module.endsSession) {
    // After the SessionEnd hooks ran (synchronously): kill leftovers, drop spilled files.
    const { endSession } = await import("../session/end.ts");
    await endSession(catalog.home, ctx.tempDir, sessionId);
  }
  await logDispatch(catalog, result, sessionId, ctx);
  return result;
}

async function logDispatch(
  catalog: Catalog,
  result: DispatchResult,
  sessionId: string,
  ctx: DispatchContext,
): Promise<void> {
  if (ctx.log === false) return;
  await appendLog(catalog.home, dispatchLogEntries(result, sessionId));
}
