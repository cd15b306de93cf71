/**
 * What a front end plugs into a dispatch (the CLI, the adapters, `serve`, the library): one
 * {@link DispatchIo}, every field with the one-shot default, and what the stages read of it.
 * @module
 */
import type { AnyCatalog, HomelessConfigOptions, HookHandler } from "../config/discovery.ts";
import type { JsonObject } from "../util/json.ts";
import type { Result } from "../util/result.ts";
import type { StrangerFiles } from "../config/fast_path_guard.ts";
import type { AsyncJob, RawCompletion } from "../runner/types.ts";
import type { AsyncResult, DispatchResult } from "../schema/result.ts";
import type { EventInput } from "./input.ts";
import type { EngineSettings } from "./settings.ts";
import type { DispatchTrace, TraceSink } from "./trace.ts";

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

/** What a front end plugs into a dispatch; every field has the one-shot default. */
export type DispatchIo = {
  /** Loads the catalog for these discovery options (`serve` passes its cache). */
  catalog?: (opts: HomelessConfigOptions) => Promise<Result<AnyCatalog>>;
  /** Runs an mcp_tool handler; absent = the one-shot runner (Streamable HTTP only). */
  runMcp?: (h: HookHandler, hookInput: JsonObject, catalog: AnyCatalog) => Promise<RawCompletion>;
  /** Starts async handlers; absent = the detached one-shot runner. */
  startAsync?: (jobs: AsyncJob[], sessionId: string) => Promise<void>;
  /** Takes the async results waiting for a session; absent = the one-shot store; null = leave them waiting. */
  takeAsync?: ((sessionId: string) => Promise<AsyncResult[]>) | null;
  /** Write the observation log (default true; `serve` logs off the response path). */
  log?: boolean;
  /**
   * The env file SessionStart hooks get (SPEC §7.1) when the host has its own — Claude Code's
   * `CLAUDE_ENV_FILE` in `--protocol claude` — instead of the session's file under the home.
   */
  envFile?: string;
  /** Filled with what Claude-dialect hooks decided beyond the result (the adapter forwards it). */
  hostHints?: HostHints;
  /**
   * Filled with why each hook ran or not (`dispatch --explain`, or a library host's `newTrace()`);
   * absent, nothing is recorded and the trace module is never loaded.
   */
  trace?: DispatchTrace;
  /**
   * `"refuse"` on the fast path (src/config/fast_path_guard.ts): the outcome is `sandbox` instead of
   * parsing a plugin or a `--hooks-file`, or of running a matched hook a stranger wrote. Default `"parse"`.
   */
  strangers?: StrangerFiles;
};

/** What the stages of one dispatch read besides the event and the catalog. */
export type Dispatching = {
  /** Root of spilled outputs (`--temp-dir`). */
  readonly tempDir: string;
  /** Adapter mode: the host that delegates to mind-hooks (`--protocol <host>`), which runs its own layers. */
  readonly delegatingHost?: string;
  /** The front end's plug-ins. */
  readonly io: DispatchIo;
  /** Where the trace is recorded (from `io.trace`), or absent. */
  readonly trace?: TraceSink;
};

/**
 * One dispatch's outcome: the result with the event and catalog it came from (no catalog when the
 * event was refused before any configuration was read), or the input's one problem.
 */
export type EngineDispatchOutcome =
  | { ok: true; event: EventInput; catalog: AnyCatalog | null; result: DispatchResult }
  | { ok: false; error: string; sandbox?: true };

/** What the stages read of these settings and this io (the trace module loaded only for a trace). */
export async function dispatchingOf(settings: EngineSettings, io: DispatchIo): Promise<Dispatching> {
  const trace = io.trace && (await import("./trace.ts")).traceSink(io.trace);
  return { tempDir: settings.tempDir, delegatingHost: settings.delegatingHost, io, ...(trace ? { trace } : {}) };
}
