/**
 * The shapes the engine's stages hand each other (issue 32), in one module: each stage file imports
 * its input and output types from here, never from another stage, so no two stages import each other
 * (`import type` included). `prepare` (input → catalog → select → verdict) reads only and returns a
 * {@link Prepared}; `execute` (run → fold → messages → finish) returns an {@link Executed}: the result,
 * the host hints and the trace by value. Nothing is written into the front end's {@link DispatchIo}.
 * @module
 */
import type { AnyCatalog, HomelessConfigOptions, HookHandler } from "../config/discovery.ts";
import type { StrangerFiles } from "../config/fast_path_guard.ts";
import type { Warning } from "../config/warnings.ts";
import type { EventName } from "../events/names.ts";
import type { EventDecision, HandlerOutcome } from "../events/types.ts";
import type { AsyncJob, RawCompletion } from "../runner/types.ts";
import type { AsyncResult, DispatchResult, RunRecord } from "../schema/result.ts";
import type { Layer } from "../schema/handler.ts";
import type { JsonObject } from "../util/json.ts";
import type { Result } from "../util/result.ts";
import type { RunDirectory } from "./run_cwd.ts";
import type { DispatchTrace, TraceSink } from "./trace.ts";
import type { TrustStatus } from "../trust/verdict.ts";

/** A validated event, in the host's form. */
export type EventInput = {
  event: EventName;
  input: JsonObject;
  warnings: Warning[];
  /**
   * The engine filled `transcript_path` (the host sent none, or null): the file it names is created
   * before any hook runs (SPEC §5). A path the host gave is passed through untouched.
   */
  transcriptFilled?: boolean;
  /** Adapter mode: what hooks read, the host's own fields (see `hostHookInput` in input.ts). */
  hookInput?: JsonObject;
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

/** What a front end plugs into a dispatch; every field has the one-shot default. The stages only read it. */
export type DispatchIo = {
  /** Loads the catalog for these discovery options (`serve` passes its cache). */
  readonly catalog?: (opts: HomelessConfigOptions) => Promise<Result<AnyCatalog>>;
  /** Runs an mcp_tool handler; absent = the one-shot runner (Streamable HTTP only). */
  readonly runMcp?: (h: HookHandler, hookInput: JsonObject, catalog: AnyCatalog) => Promise<RawCompletion>;
  /** Starts async handlers; absent = the detached one-shot runner. */
  readonly startAsync?: (jobs: AsyncJob[], sessionId: string) => Promise<void>;
  /** Takes the async results waiting for a session; absent = the one-shot store; null = leave them waiting. */
  readonly takeAsync?: ((sessionId: string) => Promise<AsyncResult[]>) | null;
  /** Write the observation log (default true; `serve` logs off the response path). */
  readonly log?: boolean;
  /**
   * The env file SessionStart hooks get (SPEC §7.1) when the host has its own — Claude Code's
   * `CLAUDE_ENV_FILE` in `--protocol claude` — instead of the session's file under the home.
   */
  readonly envFile?: string;
  /**
   * Lines the front end adds to the closing messages (the adapter's "this host was never told" line,
   * SPEC §6 r3): ordered by the messages stage with the others, so a fail-safe's failure line stays last.
   */
  readonly closing?: (ev: EventInput, catalog: AnyCatalog) => Promise<string[]>;
  /** Warnings the front end has to say in the result (the daemon's client: `W_DAEMON_SOCKET`). */
  readonly warnings?: readonly Warning[];
  /**
   * Record why each hook ran or not (`dispatch --explain`, a library host's trace): the trace comes
   * back in the outcome. Absent, nothing is recorded and the trace module is never loaded.
   */
  readonly explain?: boolean;
  /**
   * `"refuse"` on the fast path (src/config/fast_path_guard.ts): the outcome is `sandbox` instead of
   * parsing a plugin or a `--hooks-file`, or of running a matched hook a stranger wrote. Default `"parse"`.
   */
  readonly strangers?: StrangerFiles;
  /**
   * Adapter mode: the host's event as it sent it (issue 33). Hooks read it instead of the §5 form: fields
   * mind does not know pass through unchanged (checked for depth only), nothing the host did not send is
   * added but a filled `transcript_path` (§5) and the §5 tool form of `tool_name`/`tool_input`.
   */
  readonly hostFields?: JsonObject;
  /**
   * What the fast path prepared for this very event in the launcher's thread (the sandbox Worker's
   * handoff, {@link SandboxNeeded}): the dispatch goes on from it (pins, verdict, execute) instead of
   * reading the event and the configuration again.
   */
  readonly prepared?: Ready;
};

/** What the stages of one dispatch read besides the event and the catalog. */
export type Dispatching = {
  /** Root of spilled outputs (`--temp-dir`). */
  readonly tempDir: string;
  /** Adapter mode: the host that delegates to mind-hooks (`--protocol <host>`), which runs its own layers. */
  readonly delegatingHost?: string;
  /** The front end's plug-ins. */
  readonly io: DispatchIo;
  /** Where the trace is recorded (the engine's own trace, returned by value), or absent. */
  readonly trace?: TraceSink;
};

/** What trust and the enabled flag decided about one matched handler (SPEC §3, §6). */
export type Verdict =
  | { readonly runs: true; readonly status: TrustStatus }
  | {
    readonly runs: false;
    readonly status: TrustStatus;
    readonly skip: "untrusted" | "modified" | "disabled";
    /** The run record's reason: the skip, or for a modified hook which definition or pinned file changed. */
    readonly reason: string;
    /** Trusted before mind-hooks pinned the files it runs (SPEC §3.5): one review pins them. */
    readonly unpinned: boolean;
    /** A changed guard trusted as `failClosed`: why it blocks where the event can (SPEC §3.5 r4), else null. */
    readonly changedGuard: string | null;
  };

/** One matched handler through the stages of a dispatch. */
export type HandlerRun = {
  readonly handler: HookHandler;
  readonly verdict: Verdict;
  readonly record: RunRecord;
  /** How its run ended; absent while it did not run (skipped) or runs in the background (async). */
  readonly outcome?: HandlerOutcome;
  /** The order in which it completed among this dispatch's handlers (0: it did not). */
  readonly completedSeq: number;
};

/** The handlers that matched the event and where their commands would run. */
export type Selection = {
  readonly matched: readonly HookHandler[];
  readonly warnings: readonly Warning[];
  readonly where: RunDirectory;
};

/**
 * A matched hook a stranger wrote (a project's, a plugin's, a `--hooks-file`'s): the one shape in which
 * every stage and front end says so. The fast path stops on the first; the sandbox runs it.
 */
export type StrangerHook = { readonly key: string; readonly layer: Layer };

/** The wall time of each stage of one dispatch, in milliseconds (`dispatch --explain`); null: not reached. */
export type StageTimes = {
  parse: number | null;
  catalog: number | null;
  select: number | null;
  verdict: number | null;
  pins: number | null;
  run: number | null;
  fold: number | null;
  finish: number | null;
};

/** What `prepare` answers for an event it can dispatch: plain data, nothing run or written. */
export type Ready = {
  readonly kind: "ready";
  readonly event: EventInput;
  readonly catalog: AnyCatalog;
  /** Null when the catalog's hooks are switched off (SPEC §2.5). */
  readonly selection: Selection | null;
  /** The matched hooks strangers wrote (see {@link StrangerHook}), in configuration order. */
  readonly strangers: readonly StrangerHook[];
  /**
   * Each matched handler with its verdict; null when nothing is to be decided (hooks off) or when the
   * fast path stopped on a stranger's hook before its pins were read.
   */
  readonly runs: readonly HandlerRun[] | null;
  /** The trace so far, when asked for (`explain`). */
  readonly trace?: DispatchTrace;
  readonly times: StageTimes;
};

/**
 * What `prepare` answers: {@link Ready}; an input refused but answered (a nested tool event, denied
 * unseen); the input's one problem; or, on the fast path, the sandbox it needs (nothing parsed of
 * strangers' files, or a stranger's hook matched).
 */
export type Prepared =
  | Ready
  | {
    readonly kind: "answered";
    readonly event: EventInput;
    readonly result: DispatchResult;
    readonly trace?: DispatchTrace;
  }
  | { readonly kind: "invalid"; readonly error: string }
  | { readonly kind: "sandbox"; readonly needs: SandboxNeeded };

/**
 * A run that needs the sandbox Worker (the one shape in which engine, adapters, CLI, daemon and launcher
 * say that a stranger's hook matched or a stranger's file is in reach): why, and what the fast path
 * prepared (plain data, structured-cloneable), which the Worker goes on from; null when the fast path
 * refused to parse a stranger's file (a plugin, a `--hooks-file`) and the Worker must read it.
 */
export type SandboxNeeded = { readonly sandbox: string; readonly prepared: Ready | null };

/** Whether a command's outcome is {@link SandboxNeeded} rather than what it printed. */
export function sandboxNeeded<T extends object>(outcome: T | SandboxNeeded): outcome is SandboxNeeded {
  return typeof (outcome as Partial<SandboxNeeded>).sandbox === "string";
}

/** What `execute` returns, by value. */
export type Executed = {
  readonly result: DispatchResult;
  /** What Claude-dialect hooks decided beyond the result (the adapter forwards it). */
  readonly hostHints: HostHints;
  readonly trace?: DispatchTrace;
  readonly times: StageTimes;
};

/**
 * One dispatch's outcome: the result with the event and catalog it came from (no catalog when the
 * event was refused before any configuration was read), the host hints and the trace; or the input's
 * one problem; or on the fast path that the run needs the sandbox Worker (`error` says why).
 */
export type EngineDispatchOutcome =
  | {
    ok: true;
    event: EventInput;
    catalog: AnyCatalog | null;
    result: DispatchResult;
    hostHints: HostHints;
    trace?: DispatchTrace;
    times: StageTimes;
  }
  | { ok: false; error: string; sandbox?: SandboxNeeded };

/** What the run stage gives the later ones. */
export type Ran = {
  /** The runs, in configuration order, each with its outcome once it completed. */
  readonly runs: readonly HandlerRun[];
  /** The env file SessionStart command hooks got, or null. */
  readonly envFile: string | null;
  /** The `W_CWD_MISSING` line when the event's cwd was not there, or null. */
  readonly cwdMissing: string | null;
  /** Why the async hooks could not be started, or null. */
  readonly asyncFailed: string | null;
  readonly warnings: readonly Warning[];
};

/** What the fold stage decided. */
export type Folded = {
  readonly decision: EventDecision;
  readonly additionalContext: readonly string[];
  /** The spill and loop-guard warnings. */
  readonly warnings: readonly Warning[];
  /** The loop guard's lines: when it could not count in the home, when it ignored a block. */
  readonly stopLoop: readonly string[];
  /** The host hints of the decision. */
  readonly hostHints: HostHints;
};

/** What a dispatch knows once its handlers completed: what its answer is made from, normal or fail-safe. */
export type Settled = {
  /** The configuration problem lines (SPEC §6). */
  readonly problems: readonly string[];
  /** The line of a dispatch without a home (none found, or the named one missing; SPEC §1 r3), else null. */
  readonly noHome: string | null;
  readonly ran: Ran;
  /** The async results that were waiting for the session (SPEC §7.2). */
  readonly asyncResults: readonly AsyncResult[];
  /** The warnings said so far: the catalog's, the event's, matching's and the run's. */
  readonly warnings: readonly Warning[];
};

/** What a result is assembled from. */
export type Outcome = {
  readonly decision: EventDecision;
  readonly additionalContext: readonly string[];
  readonly systemMessages: readonly string[];
  readonly asyncResults: readonly AsyncResult[];
  readonly envFile: string | null;
  readonly runs: readonly HandlerRun[];
  readonly warnings: readonly Warning[];
};

/** Host hints that say nothing (no forwarded decision, no whole rewrite). */
export function noHostHints(): HostHints {
  return { permissionDecision: null, permissionDecisionReason: null, wholeRewrite: false };
}

/** Stage times with no stage reached. */
export function noTimes(): StageTimes {
  return { parse: null, catalog: null, select: null, verdict: null, pins: null, run: null, fold: null, finish: null };
}

/** What a dispatch command prints and exits with: the daemon hands it to its client, the CLI writes it. */
export type Printed = {
  readonly stdout: string;
  readonly stderr: string;
  readonly code: number;
  /** The configuration says `[hooks] daemon = false`: no daemon is started for the next event. */
  readonly daemonOff?: true;
};
