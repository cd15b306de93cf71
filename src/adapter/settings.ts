/**
 * Editing a host's hook settings file for `mind-hooks install`: Claude Code's or Gemini CLI's
 * `settings.json`, Codex's `hooks.json`, Copilot CLI's `settings.json` or a repository's
 * `.github/hooks/mind-hooks.json`. All are JSON with comments in practice, so every change is a minimal
 * jsonc-parser edit (`modify` + `applyEdits`): comments, key order, formatting and every unrelated setting
 * survive.
 *
 * The delegating entry runs `<launcher> dispatch --protocol <host>` inside a guard that fails closed when the
 * launcher is missing or does not start (src/adapter/guard.ts, SPEC §6 r4): per event, one matcher group
 * holding one command handler (Claude Code, Codex, Gemini CLI), or one handler directly in the event's list
 * (Copilot CLI), shaped by the host's {@link InstallSpec}. Any handler whose command runs `dispatch --protocol <host>`
 * is recognised as ours, so re-installing with another launcher replaces it and uninstall removes it;
 * nothing else in the file is touched.
 * @module
 */
import {
  applyEdits,
  type FormattingOptions,
  modify,
  type ParseError,
  parseTree,
  printParseErrorCode,
} from "jsonc-parser";
import { getNodeValue, type Node } from "jsonc-parser";
import { jsoncErrorSentence, type JsonObject } from "../util/json.ts";
import type { EventName } from "../events/names.ts";
import { EVENTS } from "../events/registry.ts";
import { isObject } from "../util/json.ts";
import type { Host, InstallScope } from "./host.ts";
import { ADAPTERS, hostEvents } from "./hosts.ts";
import { guardedCommand, unguarded } from "./guard.ts";
import { isDelegation } from "../util/delegation.ts";

const OS = Deno.build.os === "windows" ? "windows" : "posix";

/** The delegating call a host makes (`extra`: arguments one event's entry adds, Copilot CLI's `--event`). */
export function delegatingCommand(host: Host, launcher: string, extra = ""): string {
  return `${launcher} dispatch --protocol ${host}${extra}`;
}

/** True when `command` is a mind-hooks delegating command for `host` (whatever launcher runs it, guarded or not). */
export function isDelegatingCommand(host: Host, command: unknown): boolean {
  return isDelegation(command, host);
}

/** The command that fixes a registered command whose launcher is gone: the install again, in its scope. */
export function installFix(host: Host, scope: InstallScope, sync: boolean): string {
  const where = scope.project === undefined ? "" : scope.local ? " --local" : ` --project ${scope.project}`;
  return `mind-hooks install ${host}${sync ? " --sync" : ""}${where}`;
}

/**
 * The command registered for `event`: the delegating call inside the fail-closed guard (src/adapter/guard.ts,
 * SPEC §6 r4) — exit 2 where a block stops something, 1 on a continuation event (a block there would keep the
 * agent going) — or, on Windows, the bare call.
 */
export function registeredCommand(
  host: Host,
  event: EventName,
  launcher: string,
  fix: string,
  os: "windows" | "posix" = OS,
): string {
  const invocation = delegatingCommand(host, launcher, ADAPTERS[host].install.eventArgs?.(event) ?? "");
  if (os === "windows") return invocation;
  return guardedCommand({ launcher, invocation, code: EVENTS[event].control === "continuation" ? 1 : 2, fix });
}

/**
 * The entry installed for `event`: a matcher group (a tool event's matches every tool, `"*"`) holding the
 * host's handler, or for a `flat` host the handler itself.
 */
export function delegatingEntry(
  host: Host,
  event: EventName,
  launcher: string,
  matcher = "*",
  fix = installFix(host, {}, false),
): JsonObject {
  const spec = ADAPTERS[host].install;
  const handler = spec.handler(event, registeredCommand(host, event, launcher, fix));
  if (spec.layout === "flat") return handler;
  return EVENTS[event].matcher.kind === "tool" ? { matcher, hooks: [handler] } : { hooks: [handler] };
}

/** The outcome of planning an edit. */
export type EditPlan = {
  /** The new file text, or null when the file should be deleted (left holding nothing but its empty form). */
  text: string | null;
  /** True when anything changes. */
  changed: boolean;
  /** Events whose entry was added, replaced or removed. */
  events: EventName[];
};

/** An edit that cannot be made safely (the file is left as it is). */
export class SettingsError extends Error {
  override name = "SettingsError";
}

function formatting(text: string): FormattingOptions {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const indent = text.match(/^([ \t]+)\S/m)?.[1] ?? "  ";
  return indent.startsWith("\t")
    ? { insertSpaces: false, tabSize: 1, eol }
    : { insertSpaces: true, tabSize: indent.length, eol };
}

function parseRoot(text: string, file: string): Node | undefined {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    const e = errors[0];
    const before = text.slice(0, e.offset);
    const line = before.split("\n").length;
    const column = e.offset - before.lastIndexOf("\n");
    throw new SettingsError(
      `${file}:${line}:${column}: ${
        jsoncErrorSentence(printParseErrorCode(e.error))
      } — the file does not parse; it was not changed`,
    );
  }
  if (root && root.type !== "object") throw new SettingsError(`${file}: the top level is not an object; not changed`);
  return root;
}

function child(node: Node | undefined, key: string): Node | undefined {
  if (!node || node.type !== "object") return undefined;
  return node.children?.find((p) => p.children?.[0]?.value === key)?.children?.[1];
}

/** A handler node's command, for the host's layout. */
function commandOf(host: Host, handler: Node): unknown {
  const node = child(handler, ADAPTERS[host].install.commandField);
  return node ? getNodeValue(node) : undefined;
}

/**
 * Our handlers in one event's list, as [entry index, handler index in its group (-1 for a flat host)], last
 * first (safe removal order).
 */
function ourHandlers(host: Host, entries: Node): [number, number][] {
  const found: [number, number][] = [];
  const flat = ADAPTERS[host].install.layout === "flat";
  (entries.children ?? []).forEach((g, gi) => {
    if (flat) {
      if (g.type === "object" && isDelegatingCommand(host, commandOf(host, g))) found.push([gi, -1]);
      return;
    }
    const hooks = child(g, "hooks");
    if (hooks?.type !== "array") return;
    (hooks.children ?? []).forEach((h, hi) => {
      if (h.type === "object" && isDelegatingCommand(host, commandOf(host, h))) found.push([gi, hi]);
    });
  });
  return found.reverse();
}

/**
 * The mind-hooks commands `text` (a host's settings file) registers, by the host's event name; none when
 * it does not parse.
 */
export function delegatingCommands(host: Host, text: string): { hostEvent: string; command: string }[] {
  let root: Node | undefined;
  try {
    root = parseRoot(text, "settings");
  } catch {
    return [];
  }
  const hooks = child(root, "hooks");
  const flat = ADAPTERS[host].install.layout === "flat";
  return hostEvents(host).flatMap(({ hostEvent }) => {
    const entries = child(hooks, hostEvent);
    if (entries?.type !== "array") return [];
    return ourHandlers(host, entries).map(([gi, hi]) => {
      const entry = entries.children![gi];
      const handler = flat ? entry : child(entry, "hooks")!.children![hi];
      return { hostEvent, command: String(commandOf(host, handler)) };
    });
  });
}

/** True when `text` (a host's settings file) holds a mind-hooks entry for any event `host` maps. */
export function holdsDelegatingEntries(host: Host, text: string): boolean {
  return delegatingCommands(host, text).length > 0;
}

/** The launcher of a delegating command: what comes before `dispatch --protocol <host>` (inside a guard). */
export function launcherOf(command: string): string {
  const call = unguarded(command);
  const m = /^(.*?)\s+dispatch(?:\s|$)/.exec(call);
  return (m ? m[1] : call).trim();
}

/** True when every field of `wanted` is in `have` with the same value (the user may have added others). */
function holds(have: unknown, wanted: JsonObject): boolean {
  return isObject(have) && Object.entries(wanted).every(([k, v]) => JSON.stringify(have[k]) === JSON.stringify(v));
}

/** True when our only entry for the event already is the one wanted (alone in its group, for a grouped host). */
function alreadyThere(entries: Node, ours: [number, number][], wanted: JsonObject): boolean {
  if (ours.length !== 1) return false;
  const [gi, hi] = ours[0];
  const entry = entries.children![gi];
  if (hi < 0) return holds(getNodeValue(entry), wanted);
  const handlers = child(entry, "hooks")!;
  const matcher = child(entry, "matcher");
  return handlers.children!.length === 1 &&
    holds(getNodeValue(handlers.children![hi]), (wanted.hooks as JsonObject[])[0]) &&
    JSON.stringify(matcher ? getNodeValue(matcher) : null) === JSON.stringify(wanted.matcher ?? null);
}

/**
 * Plans the install (or, with `uninstall`, the removal) of the delegating entries in `text` (the file's
 * current content, or null when it does not exist). Idempotent: planning again on the result changes nothing.
 * Uninstalling removes ours from every event the host maps, also those not registered by default.
 */
export function planEdit(
  host: Host,
  text: string | null,
  opts: {
    launcher: string;
    uninstall: boolean;
    file: string;
    scope?: InstallScope;
    /** `install --sync`: only these events, each with its matcher (src/adapter/sync.ts); ours on others go. */
    only?: ReadonlyMap<EventName, string | null>;
  },
): EditPlan {
  const spec = ADAPTERS[host].install;
  const empty = JSON.stringify(spec.emptyFile(opts.scope ?? {}));
  // A missing or blank file starts as the host's empty form.
  let current = text === null || text.trim() === "" ? `${JSON.stringify(JSON.parse(empty), null, 2)}\n` : text;
  const fmt = { formattingOptions: formatting(current) };
  const fix = installFix(host, opts.scope ?? {}, opts.only !== undefined);
  const events: EventName[] = [];
  const edit = (path: (string | number)[], value: unknown) => {
    current = applyEdits(current, modify(current, path, value, fmt));
  };

  let root = parseRoot(current, opts.file);
  const hooks = child(root, "hooks");
  if (hooks && hooks.type !== "object") throw new SettingsError(`${opts.file}: "hooks" is not an object; not changed`);

  for (const { event, hostEvent: key } of hostEvents(host)) {
    // An event left out of `only` loses our entry, as uninstalling would remove it.
    const drop = opts.uninstall || (opts.only !== undefined && !opts.only.has(event));
    if (!drop && opts.only === undefined && spec.notByDefault.includes(event)) continue;
    root = parseRoot(current, opts.file);
    const entries = child(child(root, "hooks"), key);
    if (entries && entries.type !== "array") {
      throw new SettingsError(`${opts.file}: hooks.${key} is not an array; not changed`);
    }
    const ours = entries ? ourHandlers(host, entries) : [];
    const wanted = delegatingEntry(host, event, opts.launcher, opts.only?.get(event) ?? "*", fix);
    if (!drop && entries && alreadyThere(entries, ours, wanted)) continue;
    if (drop && ours.length === 0) continue;
    events.push(event);
    for (const [gi, hi] of ours) {
      root = parseRoot(current, opts.file);
      const list = child(child(root, "hooks"), key)!;
      const handlers = hi < 0 ? undefined : child(list.children![gi], "hooks")!;
      if (handlers && handlers.children!.length > 1) current = removeElement(current, handlers, hi);
      else if (list.children!.length === 1) edit(["hooks", key], []);
      else current = removeElement(current, list, gi);
    }
    root = parseRoot(current, opts.file);
    const left = child(child(root, "hooks"), key);
    if (drop) {
      if (left && (left.children ?? []).length === 0) current = removeProperty(current, root, ["hooks", key], fmt);
      continue;
    }
    const last = left?.children?.at(-1);
    const hooksNode = child(root, "hooks");
    const lastEvent = hooksNode?.children?.at(-1);
    const lastSetting = root?.children?.at(-1);
    if (last) current = appendAfter(current, last, wanted, fmt.formattingOptions);
    else if (!left && lastEvent && ownLine(current, lastEvent)) {
      current = appendAfter(current, lastEvent, [wanted], fmt.formattingOptions, key);
    } else if (!hooksNode && lastSetting && ownLine(current, lastSetting)) {
      current = appendAfter(current, lastSetting, { [key]: [wanted] }, fmt.formattingOptions, "hooks");
    } else edit(["hooks", key], [wanted]);
  }
  if (opts.uninstall) {
    root = parseRoot(current, opts.file);
    const h = child(root, "hooks");
    if (h && (h.children ?? []).length === 0 && events.length > 0) {
      current = removeProperty(current, root, ["hooks"], fmt);
    }
  }
  if (events.length === 0) return { text, changed: false, events: [] };
  if (current !== "" && !/\r?\n$/.test(current)) current += fmt.formattingOptions.eol;
  // A file that held nothing but our entries (and its empty form) goes away with them.
  if (opts.uninstall && current.replace(/\s/g, "") === empty) return { text: null, changed: true, events };
  return { text: current, changed: true, events };
}

/** True when `node` starts its own line (a property of a one-line object does not). */
function ownLine(text: string, node: Node): boolean {
  return /^[ \t]*$/.test(text.slice(text.lastIndexOf("\n", node.offset) + 1, node.offset));
}

/**
 * Inserts `value` as a new array element (or, with `key`, a new object property) right after `last`,
 * formatted like its neighbours. (jsonc-parser's own insertion re-formats the element or property before it,
 * which would rewrite the user's hand-made layout.)
 */
function appendAfter(text: string, last: Node, value: unknown, fmt: FormattingOptions, key?: string): string {
  const end = last.offset + last.length;
  const lineStart = text.lastIndexOf("\n", last.offset) + 1;
  const lead = text.slice(lineStart, last.offset);
  const indent = /^[ \t]*$/.test(lead) ? lead : (lead.match(/^[ \t]*/)?.[0] ?? "");
  const unit = fmt.insertSpaces ? " ".repeat(fmt.tabSize ?? 2) : "\t";
  const label = key === undefined ? "" : `${JSON.stringify(key)}: `;
  const body = label + JSON.stringify(value, null, unit).replaceAll("\n", (fmt.eol ?? "\n") + indent);
  const sameLine = !/^[ \t]*$/.test(lead);
  // An element written inline (`[ {...} ]`) gets its new neighbour inline too.
  const sep = sameLine ? ", " : "," + (fmt.eol ?? "\n") + indent;
  return text.slice(0, end) + sep + (sameLine ? label + JSON.stringify(value) : body) + text.slice(end);
}

/**
 * Removes the property at `path` (its parent an object under `root`) with its separating comma, leaving its
 * neighbours' text as it was; an only property goes through jsonc-parser (nothing else to disturb).
 */
function removeProperty(
  text: string,
  root: Node | undefined,
  path: string[],
  fmt: { formattingOptions: FormattingOptions },
): string {
  let parent = root;
  for (const k of path.slice(0, -1)) parent = child(parent, k);
  const props = parent?.children ?? [];
  const index = props.findIndex((p) => p.children?.[0]?.value === path.at(-1));
  if (index < 0) return text;
  if (props.length === 1) return applyEdits(text, modify(text, path, undefined, fmt));
  return removeElement(text, parent!, index);
}

/** Removes element `index` of `array` with its separating comma, leaving its neighbours' text as it was. */
function removeElement(text: string, array: Node, index: number): string {
  const items = array.children!;
  const el = items[index];
  if (index > 0) {
    const prev = items[index - 1];
    return text.slice(0, prev.offset + prev.length) + text.slice(el.offset + el.length);
  }
  return text.slice(0, el.offset) + text.slice(items[1].offset);
}
