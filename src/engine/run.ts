/**
 * The run stage of a dispatch (SPEC §7): every handler the verdict lets run is started at once —
 * command and mcp_tool handlers awaited, async ones handed to the async runner — and each run's
 * completion read by the event's protocol (SPEC §8). Every handler is isolated (SPEC §15).
 * @module
 */
import type { AnyCatalog, HookHandler } from "../config/discovery.ts";
import { runsAsync } from "../config/handlers.ts";
import { handlerModule } from "../config/handler_types/registry.ts";
import { RUNNERS } from "./handler_runners.ts";
import { claimOnce, ONCE_REASON } from "../session/once.ts";
import { hookHash } from "../trust/hash.ts";
import { pinRecheckOf } from "../config/pinning.ts";
import { warning } from "../config/warnings.ts";
import type { EventName } from "../events/names.ts";
import { EVENTS } from "../events/registry.ts";
import type { EventModule, HandlerOutcome } from "../events/types.ts";
import type { JsonObject } from "../util/json.ts";
import type { AsyncJob, CommandSpec, RawCompletion } from "../runner/types.ts";
import type { AsyncResult } from "../schema/result.ts";
import type { JsonSchema } from "../schema/validate.ts";
import { join } from "../util/paths.ts";
import { HANDLER_INTERNAL_ERROR } from "./fail_safe.ts";
import { hookInputFor } from "./input.ts";
import type { Dispatching, EventInput, HandlerRun, Ran } from "./types.ts";
import { cwdMissingLine, type RunDirectory } from "./run_cwd.ts";
import { runnable } from "./select.ts";
import { DIALECTS } from "../dialect/registry.ts";
import type { Dialect } from "../events/types.ts";

/** Why an async hook of a dispatch without a home did not start (SPEC §1 r3, §7.2). */
const ASYNC_NEEDS_HOME = "not started: an async hook needs a home (no home: set MIND_HOME or HOME, or pass --home DIR)";

/** What every handler of one dispatch runs with. */
type RunContext = {
  readonly ev: EventInput;
  readonly module: EventModule;
  readonly catalog: AnyCatalog;
  readonly d: Dispatching;
  readonly cwd: string;
  readonly envFile: string | null;
  readonly hookInput: JsonObject;
  /** What a mind- or Claude-dialect hook reads on stdin. */
  readonly stdin: string;
  /** What a hook of another host's dialect reads: its host's input shape, made once per dialect. */
  readonly hostStdin: Map<Dialect, string>;
  /** Counts completions: a handler's `completedSeq` (aggregation reads it, SPEC §9). */
  readonly seq: { n: number };
  /** The async jobs to start once every handler was looked at. */
  readonly jobs: AsyncJob[];
  /** Their plugins' PLUGIN_DATA being made (the sync path makes its own in runOne). */
  readonly pluginData: Promise<void>[];
};

/** The run stage: runs what the verdicts let run and waits for every synchronous handler. */
export async function runHandlers(
  ev: EventInput,
  catalog: AnyCatalog,
  d: Dispatching,
  runs: readonly HandlerRun[],
  where: RunDirectory,
): Promise<Ran> {
  const { cwd, cwdMissing } = commandDirectory(String(ev.input.cwd), runs, where);
  const module = EVENTS[ev.event];
  // What every hook about to run may rely on (SPEC §5, §7.1): the filled transcript exists, and
  // SessionStart command hooks have the session's env file.
  const envFile = await prepareRun(ev, catalog, d, module, runnable(runs).map((r) => r.handler));
  const hookInput = ev.hookInput ?? hookInputFor(ev.event, ev.input);
  const c: RunContext = {
    ev,
    module,
    catalog,
    d,
    cwd,
    envFile,
    hookInput,
    stdin: JSON.stringify(hookInput),
    hostStdin: new Map(),
    seq: { n: 0 },
    jobs: [],
    pluginData: [],
  };
  const done = runs.map((r) => startRun(r, c));
  // The async jobs start once their plugins' PLUGIN_DATA is there, while the others run.
  await Promise.all(c.pluginData);
  const [settled, asyncFailed] = await Promise.all([Promise.all(done), startJobs(c)]);
  // Started only once durably queued (SPEC §6 r4): when the jobs could not be, their runs failed.
  const ran = asyncFailed === null ? settled : settled.map((r) => notStarted(r, asyncFailed));
  const warnings = cwdMissing === null ? [] : [warning("W_CWD_MISSING", cwdMissing, String(ev.input.cwd))];
  return { runs: ran, envFile, cwdMissing, asyncFailed, warnings };
}

/** The async results waiting for the session (SPEC §7.2); without a home none wait anywhere (SPEC §1 r3). */
export async function waitingResults(ev: EventInput, catalog: AnyCatalog, d: Dispatching): Promise<AsyncResult[]> {
  const take = d.io.takeAsync;
  const home = catalog.home;
  if (take === null || (take === undefined && home === null)) return [];
  const sessionId = String(ev.input.session_id);
  // Async runners spill each result with its handler's limit before storing it (SPEC §10).
  if (take) return await take(sessionId);
  return await (await import("../session/async.ts")).takeAsyncResults(home!, sessionId);
}

/** A run that will not happen although trust lets it: skipped with `reason` (no model, `once`). */
function skippedRun(r: HandlerRun, c: RunContext, reason: string): HandlerRun {
  c.d.trace?.skip(r.handler, r.verdict.status, reason);
  return { ...r, record: { ...r.record, status: "skipped", reason } };
}

/** Starts one run: unchanged when it does not run, started when async, else its completion. */
async function startRun(r: HandlerRun, c: RunContext): Promise<HandlerRun> {
  if (!r.verdict.runs) return r;
  const h = r.handler;
  const module = handlerModule(h.handler);
  // Trusted, but not runnable with this configuration (a prompt hook without [hooks.model], SPEC §2.2 r4).
  const cannot = module.cannotRun(h.handler, c.catalog.model);
  if (cannot !== null) return skippedRun(r, c, cannot);
  // Claude Code's `once` (SPEC §2.2 r4): at most one run per session.
  if (h.handler.once && !(await claimOnce(c.catalog.home, String(c.ev.input.session_id), h.key, hookHash(h)))) {
    return skippedRun(r, c, ONCE_REASON);
  }
  if (runsAsync(h) && !c.d.io.startAsync && c.catalog.home === null) {
    // The detached runner keeps its jobs and results in the home (SPEC §7.2): without one it cannot start.
    const outcome: HandlerOutcome = { status: "failed", reason: ASYNC_NEEDS_HOME };
    const record = { ...r.record, status: "failed" as const, reason: ASYNC_NEEDS_HOME };
    return { ...r, outcome, record, completedSeq: ++c.seq.n };
  }
  if (runsAsync(h)) {
    c.d.trace?.started(h, r.verdict.status);
    c.jobs.push({
      ...commandSpecOf(h, c),
      key: h.key,
      event: c.ev.event,
      additionalContextLimit: module.contextLimit(h.handler),
      dialect: h.dialect,
      tempDir: c.d.tempDir,
      // A queued hook may start seconds later: its runner checks the pins again (SPEC §3.5 r3).
      pins: c.catalog.bypassTrust ? null : pinRecheckOf(h.pins, c.cwd),
    });
    if (h.plugin) c.pluginData.push(Deno.mkdir(h.env.PLUGIN_DATA, { recursive: true }).catch(() => {}));
    return { ...r, record: { ...r.record, status: "started", reason: "async" } };
  }
  return runSync(r, c);
}

/** Runs one synchronous handler and reads its completion; the engine failing on it is its failure. */
async function runSync(r: HandlerRun, c: RunContext): Promise<HandlerRun> {
  const h = r.handler;
  const started = performance.now();
  let outcome: HandlerOutcome;
  let record = r.record;
  try {
    const rt = await import("./runtime.ts");
    const raw = await runOne(rt.runCommand, h, c);
    const schemas = DIALECTS[h.dialect].reads === "claude" ? rt.CLAUDE_OUTPUT_SCHEMAS : rt.OUTPUT_SCHEMAS;
    outcome = rt.readCompletion(c.module, schemas[c.ev.event] as JsonSchema, raw, { dialect: h.dialect });
    record = { ...record, exit_code: raw.exitCode, duration_ms: Math.round(raw.durationMs) };
    c.d.trace?.run(h, r.verdict.status, c.module, raw, outcome, record.duration_ms);
  } catch {
    // Every handler is isolated (SPEC §15): the engine failing on one is that handler's failure.
    outcome = { status: "failed", reason: HANDLER_INTERNAL_ERROR };
    record = { ...record, duration_ms: Math.round(performance.now() - started) };
    c.d.trace?.run(h, r.verdict.status, c.module, null, outcome, record.duration_ms);
  }
  const completedSeq = ++c.seq.n;
  record = { ...record, status: outcome.status, reason: outcome.status === "failed" ? outcome.reason : record.reason };
  return { ...r, outcome, record, completedSeq };
}

/** An async run reported `started` whose job could not be queued: failed, with the reason. */
function notStarted(r: HandlerRun, why: string): HandlerRun {
  if (r.record.status !== "started") return r;
  return { ...r, record: { ...r.record, status: "failed", reason: why } };
}

/** Starts the dispatch's async jobs; resolves to the system message when they could not be started. */
async function startJobs(c: RunContext): Promise<string | null> {
  if (c.jobs.length === 0) return null;
  const start = c.d.io.startAsync ??
    (await import("../session/async.ts")).startDetachedAsync(c.catalog.home!);
  try {
    await start(c.jobs, String(c.ev.input.session_id));
    return null;
  } catch (e) {
    return `async hooks could not be started: ${e instanceof Error ? e.message : String(e)}`;
  }
}

/** Runs one handler by its type's runner (src/engine/handler_runners.ts). */
async function runOne(
  runCommand: (spec: CommandSpec) => Promise<RawCompletion>,
  h: HookHandler,
  c: RunContext,
): Promise<RawCompletion> {
  return await RUNNERS[h.handler.type](h, {
    event: c.ev.event,
    hookInput: c.hookInput,
    stdin: c.stdin,
    catalog: c.catalog,
    io: c.d.io,
    commandSpec: (x) => commandSpecOf(x, c),
    runCommand,
  });
}

/** What runs for a handler that runs a command (SPEC §7.1), synchronously or as an async job. */
function commandSpecOf(h: HookHandler, c: RunContext): CommandSpec {
  const module = handlerModule(h.handler);
  const command = module.commandText(h.handler, "linux");
  if (command === null) throw new Error(`${h.key} runs no command`);
  return {
    command,
    commandWindows: module.commandText(h.handler, "windows") ?? undefined,
    cwd: c.cwd,
    stdin: stdinOf(h, c),
    env: handlerEnv(h, c.ev.event, c.catalog, c.cwd, c.envFile, String(c.ev.input.session_id)),
    timeoutSec: h.handler.timeout,
    shell: DIALECTS[h.dialect].shell,
  };
}

/** What `h` reads on stdin: the §5 input, or its host's own input shape (SPEC §2.8 r4). */
function stdinOf(h: HookHandler, c: RunContext): string {
  const module = DIALECTS[h.dialect];
  if (module.events === null) return c.stdin;
  let text = c.hostStdin.get(h.dialect);
  if (text === undefined) {
    const ctx = { projectDir: c.catalog.project?.root ?? null };
    text = JSON.stringify(module.input(c.ev.event, c.hookInput, ctx));
    c.hostStdin.set(h.dialect, text);
  }
  return text;
}

/** The environment additions a handler's command gets (SPEC §7.1, §2.6). */
export function handlerEnv(
  h: HookHandler,
  event: EventName,
  catalog: AnyCatalog,
  cwd: string,
  envFile: string | null = null,
  sessionId = "",
): Record<string, string> {
  // A host's own hooks also get the variables that host gives them (GEMINI_PROJECT_DIR, …).
  const host = DIALECTS[h.dialect].env({ projectDir: catalog.project?.root ?? null, cwd, sessionId });
  const env: Record<string, string> = { ...pycachePrefix(catalog.home), MIND_HOOK_EVENT: event, ...host, ...h.env };
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

/**
 * Where this dispatch's command handlers run (SPEC §7.1 r3): the event's cwd, or — when it is not an
 * existing directory — the project root, else its nearest existing ancestor, said once
 * (`W_CWD_MISSING`). Looked at only when a command handler is about to run.
 */
function commandDirectory(
  cwd: string,
  runs: readonly HandlerRun[],
  where: RunDirectory,
): { cwd: string; cwdMissing: string | null } {
  if (!runs.some((r) => handlerModule(r.handler.handler).runsProcess && r.verdict.runs)) {
    return { cwd, cwdMissing: null };
  }
  return { cwd: where.dir, cwdMissing: where.missing ? cwdMissingLine(cwd, where.dir) : null };
}

/**
 * Before any hook of this dispatch runs: creates the transcript the engine filled in (SPEC §5), and
 * on an event that hands out the env file (SessionStart) with a command handler about to run, the
 * session's env file (SPEC §7.1). Returns the env file, or null.
 */
async function prepareRun(
  ev: EventInput,
  catalog: AnyCatalog,
  d: Dispatching,
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
  if (!module.envFile || !toRun.some((h) => handlerModule(h.handler).runsProcess)) return null;
  if (d.io.envFile !== undefined) return d.io.envFile;
  // Without a home nothing is written (SPEC §1 r3): no env file.
  if (catalog.home === null) return null;
  const { ensureSessionEnvFile } = await import("../session/env_file.ts");
  return await ensureSessionEnvFile(catalog.home, String(ev.input.session_id)).catch(() => null);
}
