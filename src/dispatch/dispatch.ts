/**
 * The dispatch pipeline (SPEC §6–§9): catalog → handlers of the event →
 * matcher → trust/enabled → run (concurrently) → read each completion by the
 * event's protocol → aggregate → spill → one result.
 * @module
 */
import type { EventName } from "../events/names.ts";
import { EVENTS } from "../events/registry.ts";
import {
  type AggregationItem,
  type EventDecision,
  type EventModule,
  type HandlerEffect,
  type HandlerOutcome,
  type JsonObject,
  NO_DECISION,
} from "../events/types.ts";
import type { JsonSchema } from "../schema/validate.ts";
import { type AnyCatalog, type HookHandler, skipReason } from "../config/discovery.ts";
import { NO_HOME_DISPATCH, warning } from "../config/warnings.ts";
import { fromCompatInput } from "../matching/tool_names.ts";
import { collapseIdentical, matchingHandlers } from "./matching.ts";
import type { AsyncJob, CommandSpec, RawCompletion } from "../runner/types.ts";
import { DEFAULT_CONTEXT_LIMIT, runsAsync } from "../config/handlers.ts";
import { ENGINE_FAILED, failSafeDecision, HANDLER_INTERNAL_ERROR } from "./fail_safe.ts";
import { checkPins, pinRecheckOf } from "../config/pinning.ts";
import { problemLines } from "../config/problems.ts";
import { cwdMissingLine, type RunDirectory, runDirectory } from "./run_cwd.ts";
import { join } from "../util/paths.ts";
import { type SandboxNeeded, type StrangerFiles, strangerWrote } from "../config/fast_path_guard.ts";

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
    catalog: AnyCatalog,
  ) => Promise<RawCompletion>;
  /** Starts async handlers; absent = the detached one-shot runner. */
  startAsync?: (jobs: AsyncJob[], sessionId: string) => Promise<void>;
  /** Takes the async results waiting for this session. */
  takeAsync?: (sessionId: string) => Promise<AsyncResult[]>;
  /** Write the observation log (default true). */
  log?: boolean;
  /**
   * The env file SessionStart hooks get (SPEC §7.1) when the host has its own — Claude Code's
   * `CLAUDE_ENV_FILE` in `--protocol claude` — instead of the session's file under the home.
   */
  envFile?: string;
  /** Filled by the dispatch for the adapter: what Claude-dialect hooks decided beyond mind's result. */
  hostHints?: HostHints;
  /** Records why each handler ran or not (`dispatch --explain`); absent, nothing is recorded. */
  trace?: TraceSink;
  /** Adapter mode: the host that delegates to mind-hooks (`--protocol <host>`), which runs its own layers. */
  delegatingHost?: string;
  /** `"refuse"` on the fast path: a matched hook a stranger wrote makes the outcome {@link SandboxNeeded}. */
  strangerHooks?: StrangerFiles;
};

/**
 * What Claude-dialect hooks said that mind's own result has no place for (SPEC §8.1): a PreToolUse
 * `allow` or `ask` (forwarded as Claude Code's own decision in `--protocol claude`) and whether the
 * rewrite that won came from such a hook (Claude Code replaces the input whole with it).
 */
export type HostHints = {
  permissionDecision: "allow" | "ask" | null;
  permissionDecisionReason: string | null;
  wholeRewrite: boolean;
};

/** Why an async hook of a dispatch without a home did not start (SPEC §1 r3, §7.2). */
const ASYNC_NEEDS_HOME = "not started: an async hook needs a home (no home: set MIND_HOME or HOME, or pass --home DIR)";

/** The reason a failed `failClosed` handler blocks with (SPEC §2.2). */
export function failClosedReason(key: string, why: string): string {
  return `hook ${key} failed (failClosed): ${why}`;
}

/** The environment additions a handler's command gets (SPEC §7.1, §2.6). */
export function handlerEnv(
  h: HookHandler,
  event: EventName,
  catalog: AnyCatalog,
  cwd: string,
  envFile: string | null = null,
): Record<string, string> {
  const env: Record<string, string> = { ...pycachePrefix(catalog.home), MIND_HOOK_EVENT: event, ...h.env };
  if (catalog.project) env.MIND_PROJECT_DIR = catalog.project.root;
  // Hooks written for Claude Code read CLAUDE_PROJECT_DIR; give them the same answer.
  env.CLAUDE_PROJECT_DIR = catalog.project?.root ?? cwd;
  if (envFile !== null) {
    env.CLAUDE_ENV_FILE = envFile;
    env.MIND_ENV_FILE = envFile;
  }
  return env;
}

/**
 * `PYTHONPYCACHEPREFIX` under the home unless the user's environment sets it (SPEC §3.5 r3): Python
 * then never reads bytecode from the repository, so a planted `__pycache__/*.pyc` is never loaded.
 */
function pycachePrefix(home: string | null): Record<string, string> {
  // No home (SPEC §1 r3): no project or plugin hook is loaded, so no repository's bytecode is in reach.
  if (home === null) return {};
  let own: string | undefined;
  try {
    own = Deno.env.get("PYTHONPYCACHEPREFIX");
  } catch {
    own = undefined;
  }
  return own !== undefined && own !== "" ? {} : { PYTHONPYCACHEPREFIX: join(home, "cache", "pycache") };
}

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

async function runOne(
  rt: Runtime,
  h: HookHandler,
  event: EventName,
  hookInput: JsonObject,
  stdin: string,
  catalog: AnyCatalog,
  ctx: DispatchContext,
  cwd: string,
  envFile: string | null,
): Promise<RawCompletion> {
  if (h.handler.type === "mcp_tool") {
    const run = ctx.runMcp ?? (await import("../runner/mcp.ts")).runMcpOneShot;
    return await run(h, hookInput, catalog);
  }
  if (h.plugin) {
    await Deno.mkdir(h.env.PLUGIN_DATA, { recursive: true }).catch(() => {});
  }
  return await rt.runCommand(commandSpecOf(h, event, catalog, cwd, stdin, envFile));
}

/** What runs for a command handler (SPEC §7.1), synchronously or as an async job. */
function commandSpecOf(
  h: HookHandler,
  event: EventName,
  catalog: AnyCatalog,
  cwd: string,
  stdin: string,
  envFile: string | null,
): CommandSpec {
  if (h.handler.type !== "command") throw new Error(`${h.key} is not a command handler`);
  return {
    command: h.handler.command,
    commandWindows: h.handler.commandWindows,
    cwd,
    stdin,
    env: handlerEnv(h, event, catalog, cwd, envFile),
    timeoutSec: h.handler.timeout,
    shell: h.dialect === "claude" ? "sh" : "login",
  };
}

function limitOf(h: HookHandler): number {
  return h.handler.type === "command" ? h.handler.additionalContextLimit : DEFAULT_CONTEXT_LIMIT;
}

/**
 * Dispatches one validated event against a loaded catalog; with `strangerHooks: "refuse"` (the fast
 * path), a matched hook a stranger wrote makes the outcome {@link SandboxNeeded} instead.
 */
export async function dispatchEvent(
  ev: EventInput,
  catalog: AnyCatalog,
  ctx: DispatchContext & { strangerHooks: StrangerFiles },
): Promise<DispatchResult | SandboxNeeded>;
export async function dispatchEvent(ev: EventInput, catalog: AnyCatalog, ctx: DispatchContext): Promise<DispatchResult>;
export async function dispatchEvent(
  ev: EventInput,
  catalog: AnyCatalog,
  ctx: DispatchContext,
): Promise<DispatchResult | SandboxNeeded> {
  const { event, input } = ev;
  const sessionId = String(input.session_id);
  const result = emptyResult(event, [...catalog.warnings, ...ev.warnings]);
  // SPEC §1 r3: a dispatch without a home says so to the user, whatever ran.
  if (catalog.home === null) result.systemMessages.push(NO_HOME_DISPATCH);
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

  const module = EVENTS[event];
  ctx.trace?.catalog(catalog, event);
  const selected = catalog.hooksEnabled
    ? await matchingHandlers(catalog, event, input, ctx.trace)
    : { handlers: [], warnings: [] };
  // The fast path's one stop (src/config/fast_path_guard.ts): after matching, before anything is run,
  // written, logged or taken, a stranger's matched hook sends the whole run to the sandbox Worker.
  const stranger = ctx.strangerHooks === "refuse" ? selected.handlers.find(strangerWrote) : undefined;
  if (stranger) return { sandbox: `a hook a stranger wrote matched (${stranger.key})` };
  if (ctx.takeAsync) {
    // Async runners spill each result with its handler's limit before storing it (SPEC §10).
    result.asyncResults.push(...await ctx.takeAsync(sessionId));
  }
  if (!catalog.hooksEnabled) {
    if (module.endsSession) {
      await (await import("../session/end.ts")).endSession(catalog.home, ctx.tempDir, sessionId);
    }
    await logDispatch(catalog, result, sessionId, ctx);
    return result;
  }

  const { handlers: allMatched, warnings: matchWarnings } = selected;
  result.warnings.push(...matchWarnings);
  // Where command hooks run (SPEC §7.1 r3: a missing cwd falls back to the root or an ancestor), looked at
  // only when a command hook matched.
  const where = allMatched.some((h) => h.handler.type === "command")
    ? runDirectory(String(input.cwd), catalog.project?.root ?? null)
    : { dir: String(input.cwd), missing: false };
  // Only the matched hooks' pinned files are read and hashed (SPEC §3.5), and only when trust decides:
  // against what this run executes, from where it runs and its PATH (SPEC §3.5 r3).
  if (!catalog.bypassTrust) {
    await checkPins(allMatched, { cache: catalog.pinCache, home: catalog.home ?? undefined, run: { cwd: where.dir } });
  }
  // Identical Claude-dialect copies run once (SPEC §8.1 r3).
  const { handlers: matched, copies } = collapseIdentical(allMatched, catalog.bypassTrust);
  for (const c of copies) ctx.trace?.skip(c.copy, `identical to ${c.of}: runs once, as Claude Code runs it`);
  const problems = await catalogProblems(catalog);
  const hookInput = hookInputFor(event, input);
  const stdin = JSON.stringify(hookInput);
  const cwd = commandDirectory(input, catalog, matched, result, where);

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
  let unpinned = 0;
  const asyncJobs: AsyncJob[] = [];
  const running: Promise<void>[] = [];
  const runnable = matched.map((h) => skipReason(h, catalog.bypassTrust) === null);
  // What every hook about to run may rely on (SPEC §5, §7.1): the filled transcript exists, and
  // SessionStart command hooks have the session's env file.
  const envFile = await prepareRun(ev, catalog, ctx, module, matched.filter((_, i) => runnable[i]));
  result.envFile = envFile;

  matched.forEach((h, i) => {
    const skip = skipReason(h, catalog.bypassTrust);
    if (skip) {
      ctx.trace?.skip(h, skip);
      // A modified hook says why: its definition, or which pinned file (SPEC §3.5).
      records[i].reason = skip === "modified" ? h.modifiedReason ?? skip : skip;
      if (skip !== "disabled") needReview++;
      if (skip === "modified" && h.pins?.check?.unrecorded) unpinned++;
      return;
    }
    if (h.handler.type === "command" && runsAsync(h) && !ctx.startAsync && catalog.home === null) {
      // The detached runner keeps its jobs and results in the home (SPEC §7.2): without one it cannot start.
      outcomes[i] = { status: "failed", reason: ASYNC_NEEDS_HOME };
      completedSeq[i] = ++seq;
      records[i].status = "failed";
      records[i].reason = ASYNC_NEEDS_HOME;
      return;
    }
    if (h.handler.type === "command" && runsAsync(h)) {
      records[i].status = "started";
      records[i].reason = "async";
      ctx.trace?.started(h);
      asyncJobs.push({
        ...commandSpecOf(h, event, catalog, cwd, stdin, envFile),
        key: h.key,
        event,
        additionalContextLimit: h.handler.additionalContextLimit,
        dialect: h.dialect,
        tempDir: ctx.tempDir,
        // A queued hook may start seconds later: its runner checks the pins again (SPEC §3.5 r3).
        pins: catalog.bypassTrust ? null : pinRecheckOf(h.pins, cwd),
      });
      return;
    }
    running.push((async () => {
      const started = performance.now();
      let outcome: HandlerOutcome;
      try {
        const r = await rt();
        const raw = await runOne(r, h, event, hookInput, stdin, catalog, ctx, cwd, envFile);
        const schemas = h.dialect === "claude" ? r.CLAUDE_OUTPUT_SCHEMAS : r.OUTPUT_SCHEMAS;
        outcome = r.readCompletion(module, schemas[event] as JsonSchema, raw, { dialect: h.dialect });
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
      (await import("../session/async.ts")).startDetachedAsync(catalog.home!);
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
    const review = { needReview, unpinned, problems };
    return await finish({ ev, catalog, ctx, result, matched, outcomes, completedSeq, review, spill, rt });
  } catch {
    const safe = failSafeDecision(module, effectItems(module, matched, outcomes, completedSeq), (updated) => {
      if (module.matcher.kind !== "tool") return updated;
      return fromCompatInput(String(input.tool_name), input.tool_input as JsonObject, updated);
    });
    const out: DispatchResult = {
      ...emptyResult(event, result.warnings),
      ...safe,
      systemMessages: [
        ...problems,
        ...early,
        ...failureLines(matched, outcomes),
        ...reviewLines(catalog, { needReview, unpinned, problems }),
        ENGINE_FAILED,
      ],
      asyncResults: result.asyncResults,
      envFile: result.envFile,
      runs: records,
    };
    await logDispatch(catalog, out, sessionId, ctx).catch(() => {});
    return out;
  }
}

/**
 * Where this dispatch's command handlers run (SPEC §7.1 r3): the event's cwd, or — when it is not an
 * existing directory — the project root, else its nearest existing ancestor, said once in `warnings`
 * and `systemMessages` (`W_CWD_MISSING`). Looked at only when a command handler is about to run.
 */
function commandDirectory(
  input: JsonObject,
  catalog: AnyCatalog,
  matched: readonly HookHandler[],
  result: DispatchResult,
  where: RunDirectory,
): string {
  const cwd = String(input.cwd);
  const runs = matched.some((h) => h.handler.type === "command" && skipReason(h, catalog.bypassTrust) === null);
  if (!runs) return cwd;
  if (where.missing) {
    const line = cwdMissingLine(cwd, where.dir);
    result.warnings.push(warning("W_CWD_MISSING", line, cwd));
    result.systemMessages.push(line);
  }
  return where.dir;
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

/** The effects of the outcomes as aggregation items, in configuration order. */
function effectItems(
  module: EventModule,
  matched: readonly HookHandler[],
  outcomes: readonly (HandlerOutcome | null)[],
  completedSeq: readonly number[],
): AggregationItem[] {
  const items: AggregationItem[] = [];
  outcomes.forEach((o, i) => {
    const effect = o ? effectOf(module, matched[i], o) : null;
    if (effect) items.push({ order: i, completedSeq: completedSeq[i], effect });
  });
  return items;
}

/**
 * Before any hook of this dispatch runs: creates the transcript the engine filled in (SPEC §5), and
 * on an event that hands out the env file (SessionStart) with a command handler about to run, the
 * session's env file (SPEC §7.1). Returns the env file, or null.
 */
async function prepareRun(
  ev: EventInput,
  catalog: AnyCatalog,
  ctx: DispatchContext,
  module: EventModule,
  toRun: readonly HookHandler[],
): Promise<string | null> {
  if (toRun.length === 0) return null;
  if (ev.transcriptFilled && typeof ev.input.transcript_path === "string") {
    const { ensureTranscriptFile } = await import("../session/transcript.ts");
    try {
      ensureTranscriptFile(ev.input.transcript_path);
    } catch {
      // A home that cannot be written is reported by the writers; the hooks still run.
    }
  }
  if (!module.envFile || !toRun.some((h) => h.handler.type === "command")) return null;
  if (ctx.envFile !== undefined) return ctx.envFile;
  // Without a home nothing is written (SPEC §1 r3): no env file.
  if (catalog.home === null) return null;
  const { ensureSessionEnvFile } = await import("../session/env_file.ts");
  return await ensureSessionEnvFile(catalog.home, String(ev.input.session_id)).catch(() => null);
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
function hostHintsOf(decision: EventDecision, items: readonly AggregationItem[], matched: readonly HookHandler[]) {
  const hints: HostHints = { permissionDecision: null, permissionDecisionReason: null, wholeRewrite: false };
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
  hints.wholeRewrite = rewrite !== undefined && matched[rewrite.order].dialect === "claude";
  return hints;
}

/** What the review lines of a dispatch are made from. */
type ReviewFacts = { needReview: number; unpinned: number; problems: string[] };

/**
 * The "N hooks need review" line when any matched hook was skipped for trust (SPEC §6), and once the
 * hooks among them trusted before their files were pinned (SPEC §3.5). None when the trust store
 * cannot be read: then no trust advice can work, only the fix of the file (the problem line).
 */
function reviewLines(catalog: AnyCatalog, f: ReviewFacts): string[] {
  if (f.needReview === 0 || catalog.trustStore !== null) return [];
  const n = f.needReview;
  const lines = [`${n} hook${n === 1 ? "" : "s"} need${n === 1 ? "s" : ""} review: run mind-hooks review`];
  if (f.unpinned > 0) {
    const u = f.unpinned;
    lines.push(
      `${u} of them ${u === 1 ? "was" : "were"} trusted before mind-hooks pinned the files hooks run: one review pins ${
        u === 1 ? "its" : "their"
      } files`,
    );
  }
  return lines;
}

/** The configuration problem lines of a catalog (SPEC §6), computed once per loaded catalog. */
function catalogProblems(catalog: AnyCatalog): Promise<string[]> {
  const cached = problemCache.get(catalog);
  if (cached) return cached;
  const lines = problemLines(catalog.warnings, { userConfigPath: catalog.userConfigPath, userHome: catalog.userHome });
  problemCache.set(catalog, lines);
  return lines;
}
const problemCache = new WeakMap<AnyCatalog, Promise<string[]>>();

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
  catalog: AnyCatalog;
  ctx: DispatchContext;
  result: DispatchResult;
  matched: HookHandler[];
  outcomes: (HandlerOutcome | null)[];
  completedSeq: number[];
  review: ReviewFacts;
  spill: (text: string, limit: number) => Promise<{ text: string }>;
  rt: () => Promise<Runtime>;
};

/** Aggregates, spills, applies the Stop loop guard, ends the session and logs: the engine's own work. */
async function finish(f: Finishing): Promise<DispatchResult> {
  const { ev: { event, input }, catalog, ctx, result, matched, outcomes, completedSeq, review, spill, rt } = f;
  const sessionId = String(input.session_id);
  const module = EVENTS[event];
  // Read outcomes in configuration order.
  const items: AggregationItem[] = [];
  for (let i = 0; i < matched.length; i++) {
    const outcome = outcomes[i];
    if (!outcome) continue;
    if (outcome.status === "failed") result.systemMessages.push(failureLine(matched[i], outcome));
    const own = effectOf(module, matched[i], outcome);
    if (!own) continue;
    const effect = { ...own };
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

  const decision = withStop(module.aggregate(items), items);
  Object.assign(result, decision);
  if (ctx.hostHints) Object.assign(ctx.hostHints, hostHintsOf(decision, items, matched));
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
  // The loop guard counts in the home: without one (SPEC §1 r3) nothing is counted.
  if (module.stopGuard && catalog.home !== null) {
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
  if (module.namesSkippedHooks) {
    // A session start names every hook in reach that will not run, of any event (SPEC §6 r3).
    const { sessionStartLines } = await import("./session_notice.ts");
    result.systemMessages.push(...await sessionStartLines(catalog, ctx.delegatingHost));
  } else {
    if (catalog.project && !catalog.project.trusted && catalog.project.hasHookFiles && catalog.trustStore === null) {
      // Never silent: the repository has hooks that cannot run until the project is trusted.
      result.systemMessages.push(
        `project ${catalog.project.root} has hooks but is not trusted: run mind-hooks project trust ${catalog.project.root}`,
      );
    }
    result.systemMessages.push(...reviewLines(catalog, review));
  }
  // The problems that lost hooks come first (SPEC §6): they explain what did not run.
  result.systemMessages.unshift(...review.problems);
  if (module.endsSession) {
    // After the SessionEnd hooks ran (synchronously): kill leftovers, drop spilled files.
    const { endSession } = await import("../session/end.ts");
    await endSession(catalog.home, ctx.tempDir, sessionId);
  }
  await logDispatch(catalog, result, sessionId, ctx);
  return result;
}

async function logDispatch(
  catalog: AnyCatalog,
  result: DispatchResult,
  sessionId: string,
  ctx: DispatchContext,
): Promise<void> {
  // Without a home nothing is written (SPEC §1 r3).
  if (ctx.log === false || catalog.home === null) return;
  await appendLog(catalog.home, dispatchLogEntries(result, sessionId));
}
