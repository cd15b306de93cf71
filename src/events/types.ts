/**
 * The contract every event module (`src/events/<event>.ts`) fulfils: its wire
 * schemas, how one handler's completion is read, and how the outcomes of all
 * handlers of one dispatch fold into one decision. Following Codex's layout, a
 * reader finds an event's whole behaviour in its own file.
 * @module
 */
import type * as zod from "zod";
import type { EventName } from "./names.ts";

/** The zod namespace, handed to schema factories so that zod stays off the dispatch hot path. */
export type Zod = typeof zod;

/** A JSON object as read from the wire. */
export type JsonObject = Record<string, unknown>;

/** The two wire schemas of one event. */
export type EventSchemas = {
  /** What a handler reads on stdin (SPEC §5), strict like Codex's generated schemas. */
  input: zod.ZodType;
  /** What a handler may answer on stdout (SPEC §8), strict: unknown fields fail the handler. */
  output: zod.ZodType;
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
  decision: null | "allow" | "deny" | "block" | "stop";
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

/** How an event treats exit code 2 and plain (non-JSON) stdout (SPEC §8). */
export type StdoutRule = "context" | "ignore" | "invalid";

/** One event's whole behaviour. */
export type EventModule = {
  name: EventName;
  /** Builds the zod schemas; called by the schema generator and tests, never on the dispatch path. */
  schemas(z: Zod): EventSchemas;
  /** The value the matcher is tested against, or null when the event ignores matchers (SPEC §4). */
  matcherSubject(input: JsonObject): string | null;
  /** May exit code 2 (with a reason on stderr) block? */
  exitTwoBlocks: boolean;
  /** What plain stdout means. */
  plainStdout: StdoutRule;
  /** Semantic rules on a schema-valid output object. */
  interpret(output: JsonObject): HandlerOutcome;
  /** Folds the effects of every completed handler into one decision (items in configuration order). */
  aggregate(items: AggregationItem[]): EventDecision;
};
