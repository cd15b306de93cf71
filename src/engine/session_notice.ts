/**
 * What a session start says about the hooks that will not run (SPEC §6 r3), so that a user hears about a
 * guard before the call it fails to guard: one line naming up to three hooks in reach — of any event, the
 * guards (hooks on events that can block) first —
 * that are untrusted, modified (their definition, or a pinned file) or refused for another trust reason,
 * by event, matcher and command, with the why; and one line for an untrusted project that has hooks,
 * naming its folders and how many hooks they hold.
 *
 * Pure line builders over the catalog, plus {@link countProjectHooks}, which reads an untrusted project's
 * files as text and counts their handlers without parsing them (never on the way to running or trusting
 * anything: the count is a number in a sentence, nothing more), so the dispatch fast path stays clear of
 * strangers' files (SECURITY.md, "The dispatch fast path").
 * @module
 */
import type { AnyCatalog, HookHandler } from "../config/discovery.ts";
import { catalogVerdicts } from "../config/pinning.ts";
import { unservedEventsLine } from "../config/misspellings.ts";
import { handlerModule, handlerSummary } from "../config/handler_types/registry.ts";
import type { HookKey } from "../trust/hash.ts";
import { skipWords, type TrustVerdict } from "../trust/verdict.ts";
import { isInside, join, realPathOr } from "../util/paths.ts";
import { oneLine, sanitize } from "../util/terminal_text.ts";
import { claudeIdentity } from "./matching.ts";
import { FOREIGN_LAYERS, LAYOUT } from "../config/foreign_layout.ts";
import type { Warning } from "../config/warnings.ts";
import { DIALECTS } from "../dialect/registry.ts";
import { EVENTS } from "../events/registry.ts";

/** How many hooks the line names; the rest are counted. */
export const NAMED_AT_MOST = 3;

/** A command is cut to this many characters in the line. */
const COMMAND_MAX = 60;

/**
 * Why a hook will not run, in the words `runs` uses (`untrusted`, `modified`, `modified: <file> changed`, …),
 * or null when it runs — or is disabled, which is the user's own choice and not news.
 */
export function whyNotRun(v: TrustVerdict): string | null {
  return v.skip === "disabled" ? null : skipWords(v);
}

/**
 * The hooks of `handlers` (configuration order) that will not run, each with why — leaving out a
 * Claude-dialect copy whose identical twin (same event and matcher) runs: it would run once with it
 * (SPEC §8.1 r3), so nothing is lost.
 */
export function notRunning(
  handlers: readonly HookHandler[],
  verdicts: ReadonlyMap<HookKey, TrustVerdict>,
): { hook: HookHandler; why: string }[] {
  const runs = new Set<string>();
  const twin = (h: HookHandler) => {
    const id = claudeIdentity(h);
    return id === null ? null : `${h.event}\u0000${h.matcher ?? ""}\u0000${id}`;
  };
  for (const h of handlers) {
    const t = twin(h);
    if (t !== null && verdicts.get(h.key)!.skip === null) runs.add(t);
  }
  return handlers.flatMap((h) => {
    const why = whyNotRun(verdicts.get(h.key)!);
    if (why === null) return [];
    const t = twin(h);
    return t !== null && runs.has(t) ? [] : [{ hook: h, why }];
  });
}

/** A stranger's text as a short piece of a line the host prints: one line, every control shown escaped. */
function shown(text: string, max: number): string {
  return sanitize(oneLine(text, max));
}

/** A hook as the line names it: its event, its matcher when it has one, and what it runs. */
export function hookLabel(h: HookHandler): string {
  const what = handlerSummary(h.handler);
  const matcher = h.matcher === null || h.matcher === "" ? "" : ` ${shown(h.matcher, 40)}`;
  return `${h.event}${matcher} "${shown(what, COMMAND_MAX)}"`;
}

/**
 * The line naming the hooks that will not run (`mind-hooks: 2 hooks will not run until reviewed —
 * PreToolUse Bash "python3 .mind/check_tool.py" (modified: .mind/check_tool.py changed), …: run
 * mind-hooks review`), or null when there are none.
 */
export function reviewNotice(hooks: readonly { hook: HookHandler; why: string }[]): string | null {
  if (hooks.length === 0) return null;
  const n = hooks.length;
  // Guards first (hooks on events that can block): a guard that will not run is the one that matters;
  // configuration order within each (a stable sort).
  const guardsFirst = [...hooks].sort((a, b) =>
    Number(EVENTS[b.hook.event].canBlock) - Number(EVENTS[a.hook.event].canBlock)
  );
  const named = guardsFirst.slice(0, NAMED_AT_MOST).map((x) => `${hookLabel(x.hook)} (${shown(x.why, 120)})`);
  const more = n > NAMED_AT_MOST ? ` and ${n - NAMED_AT_MOST} more` : "";
  return `mind-hooks: ${n} hook${n === 1 ? "" : "s"} will not run until reviewed — ${
    named.join(", ")
  }${more}: run mind-hooks review`;
}

/**
 * The line naming the hooks that trust lets run but this configuration cannot (a prompt hook without the
 * user's `[hooks.model]`, SPEC §2.2 r4), by the same words as {@link reviewNotice}, or null when none.
 */
export function unrunnableNotice(catalog: AnyCatalog, verdicts: ReadonlyMap<HookKey, TrustVerdict>): string | null {
  const hooks = catalog.handlers.flatMap((h) => {
    if (verdicts.get(h.key)?.skip !== null) return [];
    const why = handlerModule(h.handler).cannotRun(h.handler, catalog.model);
    return why === null ? [] : [{ hook: h, why }];
  });
  if (hooks.length === 0) return null;
  const n = hooks.length;
  const named = hooks.slice(0, NAMED_AT_MOST).map((x) => `${hookLabel(x.hook)} (${shown(x.why, 120)})`);
  const more = n > NAMED_AT_MOST ? ` and ${n - NAMED_AT_MOST} more` : "";
  return `mind-hooks: ${n} hook${n === 1 ? "" : "s"} will not run — ${named.join(", ")}${more}`;
}

/** The hosts whose hooks a dialect module translates (`Gemini CLI`, `Copilot CLI`). */
const HOSTS_TRANSLATED = Object.values(DIALECTS).flatMap((d) => d.translate !== null && d.hostName ? [d.hostName] : []);

/**
 * A warning saying a Gemini CLI or Copilot CLI hook does not run under mind: its event has no counterpart,
 * or its dialect cannot run it (SPEC §2.8 r4, §6: named, never ignored).
 */
export function isUnrunnableHostHook(w: Warning): boolean {
  return w.code === "W_HOST_EVENT_UNMAPPED" ||
    (w.code === "W_UNSUPPORTED_HANDLER" && HOSTS_TRANSLATED.some((h) => w.message.startsWith(`${h} hook `)));
}

/**
 * The session-start line naming the Gemini CLI and Copilot CLI hooks in reach that do not run under mind
 * (`mind-hooks: other hosts' hooks that will not run here — Gemini CLI's BeforeModel has no counterpart in
 * mind: its hook does not run (~/repo/.gemini/settings.json); …`), or null.
 */
export function hostHooksNotice(warnings: readonly Warning[]): string | null {
  const found = warnings.filter(isUnrunnableHostHook);
  if (found.length === 0) return null;
  const named = found.slice(0, NAMED_AT_MOST).map((w) => `${shown(w.message, 160)} (${shown(w.source, 120)})`);
  const more = found.length > NAMED_AT_MOST ? `; and ${found.length - NAMED_AT_MOST} more: see mind-hooks list` : "";
  return `mind-hooks: other hosts' hooks that will not run here — ${named.join("; ")}${more}`;
}

/** The warning of a dropped `agent` handler (src/config/handlers.ts): its message names it so. */
const AGENT_DROPPED = /^(.*): handler type "agent" is not supported; skipped$/;

/**
 * The line naming Claude Code `agent` hooks, which mind does not run (SPEC §2.2 r4: dropped, and named at
 * session start like any hook that will not run), or null when there are none.
 */
export function agentNotice(warnings: readonly { code: string; message: string; source: string }[]): string | null {
  const dropped = warnings.flatMap((w) => {
    const m = w.code === "W_UNSUPPORTED_HANDLER" ? AGENT_DROPPED.exec(w.message) : null;
    return m === null ? [] : [`${m[1]} in ${shown(w.source, 120)}`];
  });
  if (dropped.length === 0) return null;
  const n = dropped.length;
  const more = n > NAMED_AT_MOST ? ` and ${n - NAMED_AT_MOST} more` : "";
  return `mind-hooks: ${n} agent hook${
    n === 1 ? "" : "s"
  } will not run here (handler type "agent" is not supported) — ${dropped.slice(0, NAMED_AT_MOST).join(", ")}${more}`;
}

/** `a`, `a and b`, `a, b and c`. */
function spoken(items: readonly string[]): string {
  return items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

/**
 * The line of an untrusted project with hooks (`mind-hooks: /src/repo has 3 hooks in .mind/ and
 * .claude/; they will not run: mind-hooks project trust /src/repo`). `folders` are the project's
 * folders that hold hooks, with the count found in each (null when it could not be counted).
 */
export function projectNotice(root: string, folders: readonly { folder: string; hooks: number | null }[]): string {
  const counted = folders.every((f) => f.hooks !== null);
  const total = folders.reduce((n, f) => n + (f.hooks ?? 0), 0);
  const many = counted ? `${total} hook${total === 1 ? "" : "s"}` : "hooks";
  const where = spoken(folders.map((f) => `${f.folder}/`));
  const at = sanitize(root);
  return `mind-hooks: ${at} has ${many} in ${where}; ${
    counted && total === 1 ? "it" : "they"
  } will not run: mind-hooks project trust ${at}`;
}

/** The hook files of a project folder `folder` at `dir` (SPEC §2.1, §2.8): mind's, else its foreign layout's. */
function folderFiles(folder: string, dir: string): readonly string[] {
  if (folder === ".mind") return ["config.toml", "hooks.json"];
  const layout = FOREIGN_LAYERS.map((l) => LAYOUT[l]).find((l) => l.folder === folder);
  return layout ? layout.projectFiles(dir).map(([name]) => name) : [];
}

/** A file larger than this is not counted (its count is unknown). */
const COUNT_MAX_BYTES = 1024 * 1024;

/** The handler types a hooks file may declare, as their `type` is written. */
const HANDLER_TYPES = "command|mcp_tool|prompt|agent|http";
const TOML_HANDLER = new RegExp(`\\btype\\s*=\\s*["'](?:${HANDLER_TYPES})["']`, "g");
const JSON_HANDLER = new RegExp(`"type"\\s*:\\s*"(?:${HANDLER_TYPES})"`, "g");

/**
 * The text of a JSON file's `"hooks"` object (found by matching its braces, strings skipped), or "" when
 * it has none: Claude Code's settings hold other `"type": "command"` entries (`statusLine`) outside it.
 */
export function hooksObjectText(text: string): string {
  const at = /"hooks"\s*:\s*\{/.exec(text);
  if (!at) return "";
  const start = at.index + at[0].length - 1;
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return text.slice(start, i + 1);
  }
  return text.slice(start);
}

/** How many handlers the text of one hooks file declares, counted without parsing it. */
export function countHandlersInText(text: string, kind: "json" | "toml"): number {
  if (kind === "toml") return text.match(TOML_HANDLER)?.length ?? 0;
  return hooksObjectText(text).match(JSON_HANDLER)?.length ?? 0;
}

/**
 * The hooks in each of an untrusted project's `folders` (`.mind`, `.claude`, `.codex`), read as text and
 * counted without parsing (see the module note); folders holding none are left out. A `.mind` whose real
 * path leaves the project is none of its folders (trusting the project would not load it).
 */
export async function countProjectHooks(
  root: string,
  folders: readonly string[],
): Promise<{ folder: string; hooks: number | null }[]> {
  const out: { folder: string; hooks: number | null }[] = [];
  for (const folder of folders) {
    const dir = join(root, folder);
    if (!isInside(root, await realPathOr(dir))) continue;
    let hooks = 0;
    let uncounted = false;
    for (const name of folderFiles(folder, dir)) {
      const path = join(dir, name);
      try {
        const info = await Deno.stat(path);
        if (!info.isFile) continue;
        // Too large to read for a sentence: it may hold hooks, how many is not said.
        if (info.size > COUNT_MAX_BYTES) uncounted = true;
        else hooks += countHandlersInText(await Deno.readTextFile(path), name.endsWith(".toml") ? "toml" : "json");
      } catch {
        // missing or unreadable: nothing from it
      }
    }
    if (uncounted) out.push({ folder, hooks: null });
    else if (hooks > 0) out.push({ folder, hooks });
  }
  return out;
}

/** The folder of a host's own project layer: the host runs those hooks itself (SPEC §2.8). */
const HOST_FOLDER: Readonly<Record<string, string>> = Object.fromEntries(
  FOREIGN_LAYERS.map((l) => [l, LAYOUT[l].folder]),
);

/**
 * The lines a session start carries (SPEC §6 r3): the hooks in reach that will not run, then an untrusted
 * project's hooks. None while the trust store cannot be read: then no trust advice can work, and the
 * problem line (§6 r2) already says what to fix. `delegatingHost` is the adapter's host, whose own project
 * folder it runs itself (not named). Checks the pinned files of every trusted hook (a stat each while
 * they are unchanged, through the pin cache): a hook is trusted only once they hold.
 */
export async function sessionStartLines(catalog: AnyCatalog, delegatingHost?: string): Promise<string[]> {
  // Hooks on another host's event mind does not serve (SPEC §2.2 r4): no trust advice, so said always.
  const unserved = unservedEventsLine(catalog.warnings);
  if (catalog.trustStoreProblem !== null) return unserved === null ? [] : [unserved];
  const lines: string[] = unserved === null ? [] : [unserved];
  const host = hostHooksNotice(catalog.warnings);
  if (host !== null) lines.push(host);
  const verdicts = await catalogVerdicts(catalog);
  const review = reviewNotice(notRunning(catalog.handlers, verdicts));
  if (review !== null) lines.push(review);
  const unrunnable = unrunnableNotice(catalog, verdicts);
  if (unrunnable !== null) lines.push(unrunnable);
  const agents = agentNotice(catalog.warnings);
  if (agents !== null) lines.push(agents);
  const project = catalog.project;
  if (project && !project.trusted && project.hasHookFiles) {
    const own = delegatingHost === undefined ? undefined : HOST_FOLDER[delegatingHost];
    const folders = (project.folders ?? []).filter((f) => f !== own);
    const counted = await countProjectHooks(project.root, folders);
    if (counted.length > 0) lines.push(projectNotice(project.root, counted));
  }
  return lines;
}
