/**
 * The contract every event module (`src/events/<event>.ts`) fulfils: its wire
 * schemas, how one handler's completion is read, and how the outcomes of all
 * handlers of one dispatch fold into one decision. Following Codex's layout, a
 * reader finds an event's whole behaviour in its own file.
 * @module
 */
import type * as zod from "zod";
import type { EventName } from "./names.ts";
import type { JsonObject } from "../util/json.ts";

/** The zod namespace, handed to schema factories so that zod stays off the dispatch hot path. */
export type Zod = typeof zod;

/**
 * The host a hook was written for (SPEC §8.1, §2.8 r4): `mind` — mind's strict protocol; `claude` — the way
 * Claude Code reads it (a `.claude-plugin` plugin, `.claude/`); `gemini`, `copilot` — Gemini CLI's and Copilot
 * CLI's hooks, whose answers their modules (`src/dialect/`) translate into Claude Code's form first. An
 * event's `interpret` is only ever called with `mind` or `claude`.
 */
export type Dialect = "mind" | "claude" | "gemini" | "copilot";

/** The wire schemas of one event. */
export type EventSchemas = {
  /** What a handler reads on stdin (SPEC §5), strict like Codex's generated schemas. */
  input: zod.ZodType;
  /** What a handler may answer on stdout (SPEC §8), strict: unknown fields fail the handler. */
  output: zod.ZodType;
  /**
   * What a Claude-dialect handler may answer (SPEC §8.1): the fields Claude Code reads, typed as it
   * types them; every other key is ignored, as Claude Code ignores it.
   */
  claudeOutput: zod.ZodType;
};

/** The control effect of one handler that completed normally (SPEC §8). */
export type HandlerEffect = {
  /** deny / block reason (PreToolUse deny, PermissionRequest deny message, block decisions, exit-2 stderr). */
  blockReason?: string;
  /** PermissionRequest allow, or PreToolUse allow with `updatedInput`. */
  allow?: boolean;
  /** PreToolUse rewrite, in the compatibility form the hook saw. */
  updatedInput?: JsonObject;
  /** `continue: false`. */
  stop?: boolean;
  /** `stopReason` given with `continue: false`. */
  stopReason?: string;
  /** PostToolUse stop feedback for the model (`reason`, else `stopReason`, else fixed text). */
  stopFeedback?: string;
  /** Model-visible context (only on events that allow it). */
  additionalContext?: string;
  /** A warning for the user, never sent to the model. */
  systemMessage?: string;
  /**
   * A Claude-dialect PreToolUse `allow` or `ask` (SPEC §8.1): no control effect in mind's own result,
   * forwarded as Claude Code's own decision in `--protocol claude`.
   */
  forwardedDecision?: "allow" | "ask";
  /** The `permissionDecisionReason` given with {@link forwardedDecision}. */
  forwardedReason?: string;
  /**
   * A Claude-dialect PreToolUse `ask` (SPEC §8.1 r3): the host should ask the user, and one that cannot
   * ask denies. The reason shown (the hook's, else the fixed default).
   */
  ask?: string;
};

/** What reading one handler's output gives: a failure is data, not an exception. */
export type HandlerOutcome =
  | { status: "failed"; reason: string; systemMessage?: string }
  | { status: "completed" | "blocked"; effect: HandlerEffect };

/** One completed handler as aggregation sees it. */
export type AggregationItem = {
  /** Position in configuration order. */
  order: number;
  /** Completion sequence: larger = completed later. */
  completedSeq: number;
  effect: HandlerEffect;
};

/** The control part of the dispatch result (SPEC §9) that an event decides. */
export type EventDecision = {
  decision: null | "allow" | "ask" | "deny" | "block" | "stop";
  reason: string | null;
  continue: boolean;
  stopReason: string | null;
  /** In the compatibility form; the dispatcher converts it back to the host's local form. */
  updatedInput: JsonObject | null;
  continuationPrompt: string | null;
};

/** The neutral decision: nothing to control. */
export const NO_DECISION: EventDecision = Object.freeze({
  decision: null,
  reason: null,
  continue: true,
  stopReason: null,
  updatedInput: null,
  continuationPrompt: null,
});

/** How an event treats plain (non-JSON) stdout (SPEC §8). */
export type StdoutRule = "context" | "ignore" | "invalid";

/** What an event's matcher is tested against (SPEC §4). */
export type MatcherSubject =
  /** The tool name and its compatibility aliases; the hook sees the tool call in the compatibility form (§5). */
  | { kind: "tool" }
  /** One string field of the input. */
  | { kind: "field"; field: "source" | "reason" | "trigger" | "agent_type" | "notification_type" }
  /** None: a configured matcher is dropped at discovery, before it is validated or hashed. */
  | { kind: "none" };

/** Handler timeouts of an event, in seconds (SPEC §2.2): the default and the value larger ones are clamped to. */
export type TimeoutRule = { default: number; max: number | null };

/**
 * What `additionalContextLimit` bounds on an event (SPEC §2.2, §10): `context` — the handler's
 * additionalContext (and model-visible plain stdout), which the event delivers; `continuation` — the
 * block reasons that become the continuation prompt (seed 000); `none` — nothing (`W_LIMIT_IGNORED`).
 */
export type LimitUse = "context" | "continuation" | "none";

/** The coverage family of an event (SPEC §14); tool events are then labelled from their matcher. */
export type CoverageKind = "tool" | "approval" | "client";

/**
 * What the result of an event controls, which decides how it is told to a host in adapter mode:
 * `tool-permission` (PreToolUse: deny, or a rewrite), `permission-request` (allow/deny the approval),
 * `block` (reject the tool result or the prompt, with a reason), `continuation` (Stop-like: a new
 * turn with the continuation prompt), `none` (only `continue: false` and messages).
 */
export type ControlKind = "tool-permission" | "permission-request" | "block" | "continuation" | "none";

/**
 * The per-event facts the event-agnostic machinery reads: discovery (matcher, limits, clamps, which
 * handler kinds), dispatch (context, spilling, the Stop guard, session end), review (coverage) and the
 * adapters (control). Every event states every fact, so adding an event or a fact is a type error
 * wherever it matters. Events know nothing of hosts: the adapters own their event maps and input
 * placeholders (src/adapter/).
 */
export type EventFacts = {
  matcher: MatcherSubject;
  /** Exit 2 (with a reason on stderr) blocks, and a `failClosed` handler's failure blocks (SPEC §8, §2.2). */
  canBlock: boolean;
  /** What plain stdout means. */
  plainStdout: StdoutRule;
  /** What `additionalContextLimit` bounds; `context` also means the event delivers additionalContext. */
  contextLimit: LimitUse;
  timeout: TimeoutRule;
  /** May a command handler run `async` (else `W_ASYNC_IGNORED` and it runs synchronously)? */
  asyncAllowed: boolean;
  /** May an `mcp_tool` handler be configured (else dropped at discovery with `W_UNSUPPORTED_HANDLER`)? */
  mcpAllowed: boolean;
  /**
   * Command handlers get `CLAUDE_ENV_FILE` / `MIND_ENV_FILE`, the session's env file, and the result
   * names it in `envFile` (SPEC §7.1, §9: SessionStart).
   */
  envFile: boolean;
  /** The result's `reason` (tool feedback) is spilled at the default limit (SPEC §10: PostToolUse). */
  spillsFeedback: boolean;
  /** The Stop loop guard's counter for this dispatch (SPEC §8), or null when the event has no guard. */
  stopGuard: ((input: JsonObject) => string) | null;
  /** The dispatch ends the session afterwards (async handlers killed, spill folder deleted; SPEC §10). */
  endsSession: boolean;
  /**
   * The result names every hook in reach, of any event, that will not run — and an untrusted project's
   * hooks — so that a user hears of a guard before it matters (SPEC §6 r3: SessionStart).
   */
  namesSkippedHooks: boolean;
  /** Raised inside a subagent, the event points at the subagent's own transcript (SPEC §11). */
  subagentTranscript: boolean;
  coverage: CoverageKind;
  /** What the event is, in one line for people (`review` groups hooks under it, SPEC §14). */
  meaning: string;
  control: ControlKind;
};

/** One event's whole behaviour. */
export type EventModule = EventFacts & {
  name: EventName;
  /** Builds the zod schemas; called by the schema generator and tests, never on the dispatch path. */
  schemas(z: Zod): EventSchemas;
  /** Semantic rules on a schema-valid output object, read in the handler's dialect. */
  interpret(output: JsonObject, dialect: Dialect): HandlerOutcome;
  /** Folds the effects of every completed handler into one decision (items in configuration order). */
  aggregate(items: AggregationItem[]): EventDecision;
};
