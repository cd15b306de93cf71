/**
 * From a parsed `hooks` object (event → matcher groups → handlers) to
 * normalized handlers with keys, with per-group and per-handler fault
 * tolerance (SPEC §2.2): a bad matcher skips its group, a bad handler skips
 * itself, unknown fields and unknown events are warnings.
 * @module
 */
import { type EventName, eventSuggestion, isEventName } from "../events/names.ts";
import { EVENTS } from "../events/registry.ts";
import type { Dialect } from "../events/types.ts";
import type { Matcher } from "../matching/matcher.ts";
import {
  type FieldSpec,
  HANDLER_FIELDS,
  HANDLER_TYPES,
  type HookKey,
  hookKey,
  isHandlerType,
  type Layer,
  type NormalizedHandler,
} from "../schema/handler.ts";
import { handlerModule, moduleOfType } from "./handler_types/registry.ts";
import type { CommonParts } from "./handler_types/types.ts";
import { type Warning, warning } from "./warnings.ts";
import { isObject, type JsonObject, type ValuePath } from "../util/json.ts";
import { didYouMean } from "../util/suggest.ts";
import { isDelegation } from "../util/delegation.ts";
import { fail, ok, type Result } from "../util/result.ts";
import type { ServerDef } from "./mcp_servers.ts";
import { DIALECTS } from "../dialect/registry.ts";
import { DIALECT_SKIPPED } from "../dialect/common.ts";

export { DEFAULT_CONTEXT_LIMIT } from "./handler_types/command.ts";

/** A handler as discovered, before trust is applied. */
export type DiscoveredHandler = {
  key: HookKey;
  layer: Layer;
  /** The file that holds the hook (real path), or `cli-override`. */
  sourcePath: string;
  event: EventName;
  /** The matcher as written; null when absent or dropped (SPEC §4). */
  matcher: string | null;
  compiledMatcher: Matcher;
  groupIndex: number;
  handlerIndex: number;
  /** Where the handler sits in `sourcePath`, from the file's root (`["hooks", "Stop", 0, "hooks", 1]`);
   * discovery always sets it. */
  path?: ValuePath;
  /** The effective handler (defaults and clamps applied): what runs, and what is hashed. */
  handler: NormalizedHandler;
  /** How its output is read and how it is started (SPEC §8.1, §7.1). */
  dialect: Dialect;
  /**
   * The handler's `name`, when it has one: shown beside what runs (never instead of it), and never
   * hashed, so naming or renaming a hook keeps its trust (SPEC §3.2: unknown fields never enter the hash).
   */
  name?: string;
  /** Extra environment for the command (plugins, SPEC §2.6). */
  env: Record<string, string>;
  /** Set for plugin hooks. */
  plugin?: string;
  /** For mcp_tool hooks: the server definition the hook calls (SPEC §2.7), null when none resolves. */
  server?: ServerDef | null;
};

/** Where a hooks object came from. */
export type HooksSource = {
  layer: Layer;
  /** The path used in keys (real path, `cli-override`, or `<manifest>#<n>`). */
  keyPath: string;
  /** Keys of the hooks table that are settings, not events (e.g. `state` in config.toml). */
  reservedKeys?: ReadonlySet<string>;
  /** Where the hooks object sits in its file, from the root; default `["hooks"]`. */
  path?: ValuePath;
  env?: Record<string, string>;
  plugin?: string;
  /** The dialect of every hook of this source (default mind). */
  dialect?: Dialect;
  /**
   * A foreign host's layer (SPEC §2.8): a command that delegates that host's events to mind-hooks
   * (`… dispatch --protocol <host>`, what `install` writes) is skipped — run by mind it would run
   * every hook a second time.
   */
  skipDelegation?: boolean;
  /** Where a handler sits in its file when the hooks were translated from a host's form (SPEC §2.8 r4). */
  pathOf?: (event: EventName, group: number, handler: number) => ValuePath;
};

const GROUP_FIELDS = new Set(["matcher", "hooks"]);
/** Collects the handlers of one hooks object. */
export function collectHandlers(
  hooks: unknown,
  src: HooksSource,
): { handlers: DiscoveredHandler[]; warnings: Warning[] } {
  const handlers: DiscoveredHandler[] = [];
  const warnings: Warning[] = [];
  /** The events of mind-hooks' own delegating entries met (skipped). */
  const own: EventName[] = [];
  if (hooks === undefined) return { handlers, warnings };
  const base = src.path ?? ["hooks"];
  if (!isObject(hooks)) {
    warnings.push(warning("W_BAD_GROUP", "`hooks` must be a table/object of events", src.keyPath, { path: base }));
    return { handlers, warnings };
  }
  for (const [name, groups] of Object.entries(hooks)) {
    if (src.reservedKeys?.has(name)) continue;
    if (!isEventName(name)) {
      warnings.push(
        warning(
          "W_UNKNOWN_EVENT",
          `unknown event ${JSON.stringify(name)}; its hooks are ignored${eventSuggestion(name)}`,
          src.keyPath,
          {
            path: [...base, name],
          },
        ),
      );
      continue;
    }
    if (!Array.isArray(groups)) {
      warnings.push(
        warning("W_BAD_GROUP", `${name} must be a list of matcher groups`, src.keyPath, { path: [...base, name] }),
      );
      continue;
    }
    groups.forEach((group, gi) => collectGroup(name, group, gi, [...base, name, gi], src, handlers, warnings, own));
  }
  // mind-hooks' own entries are recognised quietly: one informational line for the file, not one per entry
  // (after `install claude`, eleven warnings would bury the one that matters).
  if (own.length > 0) {
    warnings.push(warning(
      "W_DELEGATING_HOOK",
      `${own.length} mind-hooks entr${own.length === 1 ? "y" : "ies"} (what mind-hooks install wrote): the host hands ${
        own.length === 1 ? "that event" : "those events"
      } to mind-hooks, so mind does not run ${own.length === 1 ? "it" : "them"} itself`,
      src.keyPath,
    ));
  }
  return { handlers, warnings };
}

function collectGroup(
  event: EventName,
  group: unknown,
  gi: number,
  path: ValuePath,
  src: HooksSource,
  out: DiscoveredHandler[],
  warnings: Warning[],
  own: EventName[],
): void {
  const where = `${event}[${gi}]`;
  const at = (...rel: (string | number)[]) => ({ path: [...path, ...rel] });
  if (!isObject(group)) {
    warnings.push(warning("W_BAD_GROUP", `${where} must be an object with matcher and hooks`, src.keyPath, at()));
    return;
  }
  for (const k of Object.keys(group)) {
    if (!GROUP_FIELDS.has(k)) {
      warnings.push(
        warning(
          "W_UNKNOWN_FIELD",
          `${where}: unknown field ${JSON.stringify(k)} ignored${didYouMean(k, GROUP_FIELDS)}`,
          src.keyPath,
          at(k),
        ),
      );
    }
  }
  let matcher: string | null = null;
  if (group.matcher !== undefined) {
    if (EVENTS[event].matcher.kind === "none") {
      // Dropped before validation and hashing, so a matcher here never changes the hash.
      warnings.push(
        warning(
          "W_MATCHER_IGNORED",
          `${where}: ${event} ignores matchers; ${JSON.stringify(group.matcher)} dropped`,
          src.keyPath,
          at("matcher"),
        ),
      );
    } else if (typeof group.matcher !== "string") {
      warnings.push(
        warning("W_BAD_MATCHER", `${where}: matcher must be a string; group skipped`, src.keyPath, at("matcher")),
      );
      return;
    } else {
      matcher = group.matcher;
    }
  }
  // A host's own hooks' matchers as that host reads them (SPEC §2.8 r4: Gemini's unanchored regexes).
  const compiled = DIALECTS[src.dialect ?? "mind"].compileMatcher(matcher);
  if (!compiled.ok) {
    warnings.push(
      warning(
        "W_BAD_MATCHER",
        `${where}: invalid matcher ${JSON.stringify(matcher)} (${compiled.error}); group skipped`,
        src.keyPath,
        at("matcher"),
      ),
    );
    return;
  }
  if (!Array.isArray(group.hooks)) {
    warnings.push(
      warning("W_BAD_GROUP", `${where}: hooks must be a list of handlers; group skipped`, src.keyPath, at("hooks")),
    );
    return;
  }
  group.hooks.forEach((raw, hi) => {
    // A host hook its dialect does not run: the translation named it; its index still counts.
    if (raw === DIALECT_SKIPPED) return;
    const handlerPath = src.pathOf?.(event, gi, hi) ?? [...path, "hooks", hi];
    const result = normalizeHandler(
      event,
      raw,
      `${where}.hooks[${hi}]`,
      handlerPath,
      src.keyPath,
      warnings,
      src.dialect ?? "mind",
    );
    if (!result) return;
    // Checked a string by normalizeHandler, which returned the hashed part only.
    const name = (raw as JsonObject).name as string | undefined;
    const commandText = handlerModule(result).commandText(result, "linux");
    if (src.skipDelegation && commandText !== null && isDelegation(commandText)) {
      own.push(event);
      return;
    }
    out.push({
      key: hookKey(src.layer, src.keyPath, event, gi, hi),
      layer: src.layer,
      sourcePath: src.keyPath,
      event,
      matcher,
      compiledMatcher: compiled.value,
      groupIndex: gi,
      handlerIndex: hi,
      path: handlerPath,
      handler: result,
      dialect: src.dialect ?? "mind",
      ...(name !== undefined && name.trim() !== "" ? { name } : {}),
      env: src.env ?? {},
      ...(src.plugin ? { plugin: src.plugin } : {}),
    });
  });
}

/** Reads one integer field; undefined when absent, a failure when wrong. */
function intField(
  h: JsonObject,
  key: string,
  min: number,
): Result<number | undefined> {
  const v = h[key];
  if (v === undefined) return ok(undefined);
  if (typeof v !== "number" || !Number.isInteger(v) || v < min) {
    return fail(`${key} must be an integer ≥ ${min}`);
  }
  return ok(v);
}

/** Effective timeout: the event's default when absent, clamped to the event's maximum (SPEC §2.2). */
function effectiveTimeout(
  event: EventName,
  given: number | undefined,
  where: string,
  path: ValuePath,
  source: string,
  warnings: Warning[],
): number {
  const rule = EVENTS[event].timeout;
  if (given === undefined) return rule.default;
  if (rule.max !== null && given > rule.max) {
    warnings.push(
      warning(
        "W_TIMEOUT_CLAMPED",
        `${where}: ${event} timeout ${given}s clamped to ${rule.max}s`,
        source,
        { path: [...path, "timeout"] },
      ),
    );
    return rule.max;
  }
  return given;
}

/** Does this handler run in the background (SPEC §7.2)? Its `async` as written, where its event allows it. */
export function runsAsync(d: Pick<DiscoveredHandler, "event" | "handler">): boolean {
  return handlerModule(d.handler).async(d.handler) && EVENTS[d.event].asyncAllowed;
}

/**
 * Validates and normalizes one handler; null (with a warning) when it must be skipped. `where`
 * names it in messages (`Stop[0].hooks[1]`), `path` is its value path in the file. What every type
 * shares is checked here (its fields known, strings and flags typed, `timeout`, `failClosed`, the Claude
 * dialect's `if` and `once`); the type's own fields by its module (src/config/handler_types/).
 */
export function normalizeHandler(
  event: EventName,
  raw: unknown,
  where: string,
  path: ValuePath,
  source: string,
  warnings: Warning[],
  dialect: Dialect = "mind",
): NormalizedHandler | null {
  // A warning about the handler itself, or about one of its fields.
  const at = (field?: string) => ({ path: field === undefined ? path : [...path, field] });
  if (!isObject(raw)) {
    warnings.push(warning("W_BAD_HANDLER", `${where}: a handler must be an object; skipped`, source, at()));
    return null;
  }
  const type = raw.type;
  if (type === "agent") {
    warnings.push(
      warning("W_UNSUPPORTED_HANDLER", `${where}: handler type "${type}" is not supported; skipped`, source, at()),
    );
    return null;
  }
  if (!isHandlerType(type)) {
    warnings.push(
      warning(
        "W_UNSUPPORTED_HANDLER",
        `${where}: handler type ${JSON.stringify(type ?? null)} is not supported (${
          HANDLER_TYPES.join(", ")
        }); skipped`,
        source,
        at(),
      ),
    );
    return null;
  }
  const unsupported = dialect === "claude" ? claudeUnsupported(raw) : null;
  if (unsupported !== null) {
    warnings.push(warning("W_UNSUPPORTED_HANDLER", `${where}: ${unsupported} is not supported; skipped`, source, at()));
    return null;
  }
  const tables = HANDLER_FIELDS[type];
  const fields: Record<string, FieldSpec> = dialect === "claude"
    ? { ...tables.fields, ...tables.claude }
    : tables.fields;
  for (const k of Object.keys(raw)) {
    if (!Object.hasOwn(fields, k)) {
      // A typo of a field (`timout`) is named: the hook runs with the default, which is rarely what was meant.
      warnings.push(
        warning(
          "W_UNKNOWN_FIELD",
          `${where}: unknown field ${JSON.stringify(k)} ignored${didYouMean(k, Object.keys(fields))}`,
          source,
          at(k),
        ),
      );
    }
  }
  // A field that makes the handler unusable: the warning points at the field (or the handler).
  const bad = (msg: string, field?: string) => {
    warnings.push(warning("W_BAD_FIELD", `${where}: ${msg}; handler skipped`, source, at(field)));
    return null;
  };
  for (const [k, f] of Object.entries(fields)) {
    const v = raw[k];
    if (v === undefined) continue;
    if ((f.kind === "text" || f.kind === "nonEmpty") && typeof v !== "string") return bad(`${k} must be a string`, k);
    if (f.kind === "flag" && typeof v !== "boolean") return bad(`${k} must be a boolean`, k);
  }
  const claude = dialect === "claude" ? claudeFields(event, raw, where, source, warnings) : {};
  if (claude === null) return bad("if must be a string");
  const module = moduleOfType(type);
  const refused = module.refusedOn(event);
  if (refused !== null) {
    warnings.push(warning("W_UNSUPPORTED_HANDLER", `${where}: ${refused}; skipped`, source, at()));
    return null;
  }
  const failClosed = (raw.failClosed ?? raw.fail_closed) === true;
  const timeoutGiven = intField(raw, "timeout", 1);
  if (!timeoutGiven.ok) return bad(timeoutGiven.error, "timeout");
  const timeout = effectiveTimeout(
    event,
    timeoutGiven.value ?? module.defaultTimeout ?? undefined,
    where,
    path,
    source,
    warnings,
  );
  const statusMessage = raw.statusMessage as string | undefined;
  const common: CommonParts = {
    timeout,
    ...(statusMessage !== undefined ? { statusMessage } : {}),
    ...claude,
    ...(failClosed ? { failClosed: true as const } : {}),
  };
  const h = module.normalize(raw, {
    event,
    dialect,
    where,
    path,
    source,
    warnings,
    common,
    bad,
    warn: (code, message, field) => warnings.push(warning(code, message, source, at(field))),
  });
  if (h !== null && failClosed) {
    failClosedApplies(event, module.async(h) && EVENTS[event].asyncAllowed, where, source, warnings);
  }
  return h;
}

/**
 * What of Claude Code's handler definition mind cannot run the same way, or null: its exec form
 * (`args`: `command` is then a program, not a shell line) and a PowerShell hook. Run any other way
 * they would run something else, so they are skipped with a warning instead.
 */
function claudeUnsupported(raw: JsonObject): string | null {
  if (raw.args !== undefined) return "Claude Code's exec form (args)";
  if (raw.shell !== undefined && raw.shell !== "bash") return `shell ${JSON.stringify(raw.shell)}`;
  return null;
}

/**
 * The Claude-dialect fields of a handler (SPEC §2.2): its `if` (an empty one filters nothing, as in
 * Claude Code), or null when `if` is not a string. Claude Code evaluates `if` only on tool events:
 * elsewhere the handler never runs, which is said once here.
 */
function claudeFields(
  event: EventName,
  raw: JsonObject,
  where: string,
  source: string,
  warnings: Warning[],
): { if?: string; once?: true } | null {
  const once = raw.once === true ? { once: true as const } : {};
  if (raw.asyncRewake === true) {
    warnings.push(warning(
      "W_UNKNOWN_FIELD",
      `${where}: asyncRewake runs the hook in the background (async); waking the model on exit 2 is not supported`,
      source,
    ));
  }
  if (raw.if === undefined || raw.if === "") return once;
  if (typeof raw.if !== "string") return null;
  if (EVENTS[event].matcher.kind !== "tool") {
    warnings.push(warning(
      "W_IF_NEVER_MATCHES",
      `${where}: "if" is evaluated only on tool events; this ${event} handler never runs (as in Claude Code)`,
      source,
    ));
  }
  return { if: raw.if, ...once };
}

/** Warns when `failClosed` can have no effect: an event that cannot block, or an async handler (SPEC §2.2). */
function failClosedApplies(
  event: EventName,
  isAsync: boolean,
  where: string,
  source: string,
  warnings: Warning[],
): void {
  if (EVENTS[event].canBlock && !isAsync) return;
  const why = isAsync ? "an async handler has no control effect" : `${event} cannot block`;
  warnings.push(warning("W_FAIL_CLOSED_IGNORED", `${where}: failClosed ignored: ${why}`, source));
}
