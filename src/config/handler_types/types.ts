/**
 * The handler-type contract (SPEC §2.2): what discovery, trust, the sandbox, `list` and `review` need to
 * know of one kind of handler (`command`, `mcp_tool`, `http`, `prompt`), in one module per type under
 * `src/config/handler_types/`, reached through the exhaustive registry (`registry.ts`), so adding a type
 * or a fact is a type error wherever it matters. The field tables and the hash subject are the schema
 * half (`src/schema/handler.ts`, below config in the folder graph); how each type runs is the runner
 * half (`src/engine/handler_runners.ts` over `src/runner/`). Nothing outside these switches on a type
 * (tests/architecture_test.ts).
 * @module
 */
import type { EventName } from "../../events/names.ts";
import type { Dialect } from "../../events/types.ts";
import type { HandlerType, NormalizedHandler } from "../../schema/handler.ts";
import type { JsonObject, ValuePath } from "../../util/json.ts";
import type { Warning } from "../warnings.ts";
import type { ModelConfig } from "../hooks_model.ts";

/** The normalized handler of type `T`. */
export type HandlerOf<T extends HandlerType> = Extract<NormalizedHandler, { type: T }>;

/** What every handler type carries alike, already checked by the normalizer (`config/handlers.ts`). */
export type CommonParts = {
  timeout: number;
  statusMessage?: string;
  /** Claude-dialect `if` and `once` (SPEC §2.2), present only when set. */
  if?: string;
  once?: true;
  failClosed?: true;
};

/** What normalizing one handler's own fields gets. */
export type NormalizeContext = {
  event: EventName;
  dialect: Dialect;
  /** Names the handler in messages (`Stop[0].hooks[1]`). */
  where: string;
  /** Its value path in the file. */
  path: ValuePath;
  source: string;
  warnings: Warning[];
  /** The common fields, checked. */
  common: CommonParts;
  /** Records `W_BAD_FIELD` for `field` (or the handler) and returns null: the handler is skipped. */
  bad(message: string, field?: string): null;
  /** Records a warning of `code` about `field` (or the handler). */
  warn(code: Warning["code"], message: string, field?: string): void;
};

/** One row of `review`'s details pane: a label, the value, and whether it is what runs (bold). */
export type DetailRow = readonly [label: string, value: string, bold?: boolean];

/** The facts of one handler type. */
export type HandlerModule<T extends HandlerType> = {
  type: T;
  /** Its timeout when none is written, in seconds; null: the event's default (SPEC §2.2). */
  defaultTimeout: number | null;
  /** Why it cannot be configured on `event` (dropped with `W_UNSUPPORTED_HANDLER`), or null. */
  refusedOn(event: EventName): string | null;
  /** Its own fields checked and normalized over `c.common`; null (with a warning) when it is skipped. */
  normalize(raw: JsonObject, c: NormalizeContext): HandlerOf<T> | null;
  /** What runs, in one line: `list`, `review`, the trust confirmation and the session-start notice. */
  summary(h: HandlerOf<T>): string;
  /** What `list` puts before the summary (`command: `), or "". */
  listPrefix: string;
  /** Its rows in `review`'s details pane (after Type). */
  details(h: HandlerOf<T>): DetailRow[];
  /** Its own fields in `list --json` (secrets never: an http hook's headers are shown as written). */
  json(h: HandlerOf<T>): JsonObject;
  /** What `review` warns about, each shown as `⚠ …` (SPEC §2.2 r4: where an http hook sends events). */
  reviewWarnings(h: HandlerOf<T>): string[];
  /** The command text the pin reader reads (SPEC §3.5) on `os`, or null when it runs no command. */
  commandText(h: HandlerOf<T>, os: typeof Deno.build.os): string | null;
  /** It starts a process in the event's cwd (the run directory, SessionStart's env file, plugin data). */
  runsProcess: boolean;
  /** Its `additionalContextLimit` (SPEC §10). */
  contextLimit(h: HandlerOf<T>): number;
  /** It runs in the background when written so (SPEC §7.2; the event decides too). */
  async(h: HandlerOf<T>): boolean;
  /**
   * The network a stranger's hook of this type needs in the sandbox Worker (`host:port`), beyond what the
   * run's plan grants (SPEC §2.2 r4: an http hook reaches its URL's host and port only).
   */
  netReach(h: HandlerOf<T>, model: ModelConfig | null): string[];
  /**
   * Why it cannot run with this configuration although trusted (a prompt hook without `[hooks.model]`),
   * or null: it is then skipped with that reason and named at session start like any hook that will not run.
   */
  cannotRun(h: HandlerOf<T>, model: ModelConfig | null): string | null;
  /** The `[mcp_servers.<name>]` it calls (SPEC §2.7; discovery resolves it into the hash), or null. */
  mcpServer(h: HandlerOf<T>): string | null;
};
