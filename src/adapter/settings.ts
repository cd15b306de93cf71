/**
 * Editing a host's hook settings file for `mind-hooks install`: Claude Code's `settings.json` or Codex's
 * `hooks.json`. Both are JSON with comments in practice, so every change is a minimal jsonc-parser edit
 * (`modify` + `applyEdits`): comments, key order, formatting and every unrelated setting survive.
 *
 * The delegating entry is one matcher group per event holding one command handler,
 * `<launcher> dispatch --protocol <host>`. Any command handler whose command runs
 * `dispatch --protocol <host>` is recognised as ours, so re-installing with another launcher replaces it
 * and uninstall removes it; nothing else in the file is touched.
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
import { jsoncErrorSentence } from "../util/json.ts";
import type { EventName } from "../events/names.ts";
import { EVENTS } from "../events/registry.ts";
import { type Host, HOST_EVENTS } from "./hosts.ts";

/** The command a host runs for every event. */
export function delegatingCommand(host: Host, launcher: string): string {
  return `${launcher} dispatch --protocol ${host}`;
}

/** True when `command` is a mind-hooks delegating command for `host` (whatever launcher runs it). */
export function isDelegatingCommand(host: Host, command: unknown): boolean {
  return typeof command === "string" &&
    new RegExp(`(^|\\s)dispatch\\s+(.*\\s)?--protocol(\\s+|=)${host}(\\s|$)`).test(command);
}

/** The matcher group installed for `event`: a tool event's group matches every tool (`"*"`). */
export function delegatingGroup(host: Host, event: EventName, launcher: string): Record<string, unknown> {
  const handler = { type: "command", command: delegatingCommand(host, launcher) };
  return EVENTS[event].matcher.kind === "tool" ? { matcher: "*", hooks: [handler] } : { hooks: [handler] };
}

/** The outcome of planning an edit. */
export type EditPlan = {
  /** The new file text, or null when the file should be deleted (a Codex hooks.json left empty). */
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

/** Our handlers in one event's group list, as [group index, handler index], last first (safe removal order). */
function ourHandlers(host: Host, groups: Node): [number, number][] {
  const found: [number, number][] = [];
  (groups.children ?? []).forEach((g, gi) => {
    const hooks = child(g, "hooks");
    if (hooks?.type !== "array") return;
    (hooks.children ?? []).forEach((h, hi) => {
      if (h.type === "object" && isDelegatingCommand(host, getNodeValue(child(h, "command")!))) found.push([gi, hi]);
    });
  });
  return found.reverse();
}

/**
 * Plans the install (or, with `uninstall`, the removal) of the delegating entries in `text` (the file's
 * current content, or null when it does not exist). Idempotent: planning again on the result changes nothing.
 */
export function planEdit(
  host: Host,
  text: string | null,
  opts: { launcher: string; uninstall: boolean; file: string },
): EditPlan {
  // A missing or blank file starts as an empty object.
  let current = text === null || text.trim() === "" ? "{}\n" : text;
  const fmt = { formattingOptions: formatting(current) };
  const events: EventName[] = [];
  const desired = delegatingCommand(host, opts.launcher);
  const edit = (path: (string | number)[], value: unknown) => {
    current = applyEdits(current, modify(current, path, value, fmt));
  };

  let root = parseRoot(current, opts.file);
  const hooks = child(root, "hooks");
  if (hooks && hooks.type !== "object") throw new SettingsError(`${opts.file}: "hooks" is not an object; not changed`);

  for (const event of HOST_EVENTS[host]) {
    root = parseRoot(current, opts.file);
    const groups = child(child(root, "hooks"), event);
    if (groups && groups.type !== "array") {
      throw new SettingsError(`${opts.file}: hooks.${event} is not an array; not changed`);
    }
    const ours = groups ? ourHandlers(host, groups) : [];
    if (!opts.uninstall && ours.length === 1) {
      // Already there, with this launcher, alone in its group: nothing to do for this event.
      const [gi, hi] = ours[0];
      const group = groups!.children![gi];
      const handler = getNodeValue(child(group, "hooks")!.children![hi]);
      const wanted = delegatingGroup(host, event, opts.launcher);
      if (
        handler.command === desired && child(group, "hooks")!.children!.length === 1 &&
        JSON.stringify(getNodeValue(child(group, "matcher") ?? { type: "null" } as Node) ?? null) ===
          JSON.stringify(wanted.matcher ?? null)
      ) continue;
    }
    if (opts.uninstall && ours.length === 0) continue;
    events.push(event);
    for (const [gi, hi] of ours) {
      root = parseRoot(current, opts.file);
      const g = child(child(root, "hooks"), event)!.children![gi];
      const handlers = child(g, "hooks")!;
      if (handlers.children!.length === 1) {
        const list = child(child(root, "hooks"), event)!;
        if (list.children!.length === 1) edit(["hooks", event], []);
        else current = removeElement(current, list, gi);
      } else current = removeElement(current, handlers, hi);
    }
    root = parseRoot(current, opts.file);
    const left = child(child(root, "hooks"), event);
    if (opts.uninstall) {
      if (left && (left.children ?? []).length === 0) edit(["hooks", event], undefined);
      continue;
    }
    const group = delegatingGroup(host, event, opts.launcher);
    const last = left?.children?.at(-1);
    if (last) current = appendAfter(current, last, group, fmt.formattingOptions);
    else edit(["hooks", event], [group]);
  }
  if (opts.uninstall) {
    root = parseRoot(current, opts.file);
    const h = child(root, "hooks");
    if (h && (h.children ?? []).length === 0 && events.length > 0) edit(["hooks"], undefined);
  }
  if (events.length === 0) return { text, changed: false, events: [] };
  if (current !== "" && !/\r?\n$/.test(current)) current += fmt.formattingOptions.eol;
  // A Codex hooks.json that held nothing but our entries goes away with them; a Claude Code settings.json
  // always holds other settings, so it stays even when empty.
  if (opts.uninstall && host === "codex" && current.replace(/\s/g, "") === "{}") {
    return { text: null, changed: true, events };
  }
  return { text: current, changed: true, events };
}

/**
 * Inserts `value` as a new array element right after `last`, formatted like its neighbours. (jsonc-parser's
 * own array insertion re-formats the existing elements, which would rewrite the user's hand-made layout.)
 */
function appendAfter(text: string, last: Node, value: unknown, fmt: FormattingOptions): string {
  const end = last.offset + last.length;
  const lineStart = text.lastIndexOf("\n", last.offset) + 1;
  const lead = text.slice(lineStart, last.offset);
  const indent = /^[ \t]*$/.test(lead) ? lead : (lead.match(/^[ \t]*/)?.[0] ?? "");
  const unit = fmt.insertSpaces ? " ".repeat(fmt.tabSize ?? 2) : "\t";
  const body = JSON.stringify(value, null, unit).replaceAll("\n", (fmt.eol ?? "\n") + indent);
  const sameLine = !/^[ \t]*$/.test(lead);
  // An element written inline (`[ {...} ]`) gets its new neighbour inline too.
  const sep = sameLine ? ", " : "," + (fmt.eol ?? "\n") + indent;
  return text.slice(0, end) + sep + (sameLine ? JSON.stringify(value) : body) + text.slice(end);
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
