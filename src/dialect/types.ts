/**
 * The contract of a hook dialect (SPEC §8.1, §2.8 r4): how the hooks written for one host are read,
 * matched, started, fed and answered. Every dialect is one module holding all its maps in one
 * {@link DialectModule} record, and the registry (`registry.ts`) is a `Record<Dialect, DialectModule>`:
 * a fifth host's files are one more module, and a missed fact is a type error.
 * @module
 */
import type { Dialect } from "../events/types.ts";
import type { EventName } from "../events/names.ts";
import type { JsonObject, ValuePath } from "../util/json.ts";
import type { Matcher } from "../matching/matcher.ts";
import type { Result } from "../util/result.ts";

export type { Dialect } from "../events/types.ts";

/** One of a host's tools as mind hooks know it: mind's (Claude Code's) name and renamed parameters. */
export type ToolAlias = { name: string; params: ReadonlyMap<string, string> };

/** A host's tools by the host's own name. */
export type ToolTable = ReadonlyMap<string, ToolAlias>;

/** What a dialect translation reports about a host hook it does not run (named, never silent). */
export type DialectNote = {
  /** `W_HOST_EVENT_UNMAPPED` (the host event has no mind counterpart) or `W_UNSUPPORTED_HANDLER`. */
  code: "W_HOST_EVENT_UNMAPPED" | "W_UNSUPPORTED_HANDLER";
  message: string;
  path: ValuePath;
};

/**
 * A host's hooks object read into mind's form: `hooks` is event → matcher groups → handlers, in mind's
 * event names and handler fields; `pathOf` gives where a handler sits in the host's file.
 */
export type TranslatedHooks = {
  hooks: JsonObject;
  notes: DialectNote[];
  pathOf(event: EventName, group: number, handler: number): ValuePath;
};

/** Where the hooks being translated came from. */
export type TranslateOptions = { extensionPath?: string };

/** The part of a hook's completion a dialect translates (the runner's `RawCompletion` has it). */
export type Answer = { stdout: string; stderr: string; exitCode: number | null; stdoutTruncated: boolean };

/** What a dialect's hook input may use beyond the §5 input. */
export type InputContext = { projectDir: string | null };

/** One dialect, all of it. */
export type DialectModule = {
  dialect: Dialect;
  /** The host whose hooks these are, as people call it (`Gemini CLI`), or null for mind's own. */
  hostName: string | null;
  /** How a translated answer is read: mind's strict protocol or Claude Code's (SPEC §8, §8.1). */
  reads: "mind" | "claude";
  /** How a command starts: the login shell (mind) or `/bin/sh -c` as the host starts its hooks. */
  shell: "login" | "sh";
  /**
   * The host's event names onto mind's; `null` for a host event with no mind counterpart (its hooks are
   * named, never dropped silently). `null` as a whole: the dialect uses mind's own event names.
   */
  events: Readonly<Record<string, EventName | null>> | null;
  /** The host's tools by its own names (empty: the host uses mind's names). */
  tools: ToolTable;
  /** A host's hooks object in mind's form, or null when it is mind's form already. */
  translate: ((hooks: JsonObject, base: ValuePath, opts: TranslateOptions) => TranslatedHooks) | null;
  /** Compiles a matcher the way the host matches it. */
  compileMatcher(matcher: string | null): Result<Matcher>;
  /** The names a tool hook's matcher is tested against, from mind's (§5) tool name. */
  matchSubjects(toolName: string): string[];
  /** What the hook reads on stdin: the host's own input shape, from the §5 hook input. */
  input(event: EventName, hookInput: JsonObject, ctx: InputContext): JsonObject;
  /** The host's answer as the reader of {@link reads} takes it (identity for mind and Claude). */
  answer(event: EventName, raw: Answer): Answer;
  /** Environment the host gives its hooks, beyond mind's (§7.1). */
  env(ctx: InputContext & { sessionId: string; cwd: string }): Record<string, string>;
};
