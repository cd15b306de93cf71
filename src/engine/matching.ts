/**
 * Which handlers of an event its input matches (SPEC §4, §6) — the matcher, then a Claude-dialect
 * handler's `if` (SPEC §2.2) — with the matcher of every hook that will not run kept from stalling the
 * dispatch (SPEC §15).
 * @module
 */
import type { EventName } from "../events/names.ts";
import { EVENTS } from "../events/registry.ts";
import type { JsonObject } from "../util/json.ts";
import type { AnyCatalog, HookHandler } from "../config/discovery.ts";
import type { HookKey } from "../trust/hash.ts";
import { definitionStatusOf, type TrustVerdict } from "../trust/verdict.ts";
import { type Warning, warning } from "../config/warnings.ts";
import { matcherMatches } from "../matching/matcher.ts";
import { toCompatTool, toolMatchSubjects } from "../matching/tool_names.ts";
import { IF_BUDGET_MS, IfFilter, type IfFilterOptions } from "../matching/permission_rule.ts";
import type { EventFacts } from "../events/types.ts";
import type { TraceSink } from "./trace.ts";
import { canonicalJson } from "../trust/hash.ts";
import { DIALECTS } from "../dialect/registry.ts";

/** The values an event's matchers are tested against (SPEC §4), or null when the event has no matcher. */
export function matchSubjects(facts: EventFacts, input: JsonObject): string[] | null {
  switch (facts.matcher.kind) {
    case "none":
      return null;
    case "tool":
      return toolMatchSubjects(String(input.tool_name));
    case "field":
      return [String(input[facts.matcher.field])];
  }
}

/**
 * The handlers of `event` whose matcher matches `input` (configuration order), and a warning for
 * each untrusted matcher that could not be checked (it then counts as matched).
 *
 * A regex matcher of a hook that will run (managed, trusted, or any hook under the trust bypass) is
 * the user's own: it runs natively. Any other regex is a stranger's and may backtrack for hours
 * (SPEC §15): its hook's trust status is decided first (cheap: only such handlers are hashed), and
 * it runs on the linear-time engine (src/matching/safe_matcher.ts).
 *
 * With a `trace` (`dispatch --explain`), what the matcher said about each handler is recorded;
 * `ifOptions` sets the `if` filters' budget and clock (tests).
 */
export async function matchingHandlers(
  catalog: AnyCatalog,
  event: EventName,
  input: JsonObject,
  trace?: TraceSink,
  ifOptions?: IfFilterOptions,
): Promise<{ handlers: HookHandler[]; warnings: Warning[] }> {
  const eventSubjects = matchSubjects(EVENTS[event], input);
  const toolEvent = EVENTS[event].matcher.kind === "tool";
  // The §5 tool name (`Bash` for every shell tool), which a dialect turns into its host's own.
  const compatTool = toolEvent
    ? String(toCompatTool(String(input.tool_name), input.tool_input as JsonObject).tool_name)
    : "";
  const hostSubjects = (h: HookHandler): string[] | null =>
    toolEvent && DIALECTS[h.dialect].events !== null ? DIALECTS[h.dialect].matchSubjects(compatTool) : null;
  const ifs = ifRules(catalog, input, EVENTS[event].matcher.kind === "tool", ifOptions);
  const handlers: HookHandler[] = [];
  // A Claude-dialect handler whose `if` does not match is not matched (SPEC §2.2).
  const keep = (h: HookHandler): boolean => {
    const rule = h.handler.if;
    if (rule !== undefined && !ifs.matches(h, rule)) return false;
    handlers.push(h);
    return true;
  };
  trace?.subjects(eventSubjects);
  const warnings: Warning[] = [];
  let safe: import("../matching/safe_matcher.ts").SafeMatching | null = null;
  let overBudget = 0;
  for (const h of catalog.handlers) {
    if (h.event !== event) continue;
    const m = h.compiledMatcher;
    // A host's own hook matches the host's tool names, as that host matches them (SPEC §2.8 r4).
    const subjects = hostSubjects(h) ?? eventSubjects;
    if (subjects === null || m.kind !== "regex" || runsOwnMatcher(h, catalog.bypassTrust)) {
      const matched = subjects === null || matcherMatches(m, subjects);
      traceOwnMatch(h, subjects, matched, matched && keep(h), trace);
      continue;
    }
    const engine = await import("../matching/safe_matcher.ts");
    safe ??= new engine.SafeMatching();
    const outcome = await safe.match(m, subjects);
    if (outcome.unchecked !== null) trace?.match(h, `counted as matched: ${outcome.unchecked}`);
    else trace?.match(h, outcome.matched ? "matched" : "not matched");
    if (outcome.unchecked === engine.BUDGET_SPENT) overBudget++;
    else if (outcome.unchecked !== null) {
      warnings.push(warning(
        "W_MATCHER_UNCHECKED",
        `the matcher of ${
          definitionStatusOf(h)
        } hook ${h.key} was not evaluated: ${outcome.unchecked}; counted as matched (the hook is skipped until reviewed)`,
        h.sourcePath,
      ));
    }
    if (outcome.matched) keep(h);
  }
  return { handlers, warnings: [...warnings, ...await budgetWarnings(overBudget, ifs.unchecked())] };
}

/**
 * The `if` rules of one dispatch: one filter, made when the first rule is tested, each rule compiled
 * once, the call read once, a budget over all (SPEC §2.2 r3).
 */
function ifRules(
  catalog: AnyCatalog,
  input: JsonObject,
  toolEvent: boolean,
  ifOptions?: IfFilterOptions,
): { matches(h: HookHandler, rule: string): boolean; unchecked(): number } {
  let filter: IfFilter | null = null;
  return {
    matches(h, rule) {
      // Claude Code evaluates `if` only on tool events; elsewhere such a handler never runs (SPEC §2.2).
      if (!toolEvent) return false;
      // A stranger's rule is not evaluated: the hook is reported (and skipped) either way (SPEC §15).
      if (!runsOwnMatcher(h, catalog.bypassTrust)) return true;
      if (filter === null) {
        const compat = toCompatTool(String(input.tool_name), input.tool_input as JsonObject);
        filter = new IfFilter({
          toolName: compat.tool_name,
          toolInput: compat.tool_input,
          cwd: String(input.cwd),
          home: catalog.userHome ?? undefined,
        }, ifOptions);
      }
      return filter.matches(rule);
    },
    unchecked: () => filter?.unchecked ?? 0,
  };
}

/** What the trace says of a handler whose own matcher ran (`kept`: its `if` rule matched too). */
function traceOwnMatch(
  h: HookHandler,
  subjects: string[] | null,
  matched: boolean,
  kept: boolean,
  trace?: TraceSink,
): void {
  const note = subjects === null
    ? "no matcher (the event has none)" as const
    : h.compiledMatcher.kind === "all"
    ? "matches every call" as const
    : "matched" as const;
  if (!matched) trace?.match(h, "not matched");
  else trace?.match(h, kept ? note : `${note}; its if rule ${JSON.stringify(h.handler.if)} did not match`);
}

/** The budget warnings of one dispatch's matching: strangers' matchers and `if` filters not evaluated. */
async function budgetWarnings(overBudget: number, unchecked: number): Promise<Warning[]> {
  const warnings: Warning[] = [];
  if (overBudget > 0) {
    const { BUDGET_SPENT } = await import("../matching/safe_matcher.ts");
    warnings.push(warning(
      "W_MATCHER_UNCHECKED",
      `${overBudget} untrusted or modified hooks' matchers were not evaluated: ${BUDGET_SPENT}; counted as matched (skipped until reviewed)`,
      "dispatch",
    ));
  }
  if (unchecked > 0) {
    warnings.push(warning(
      "W_IF_BUDGET",
      `${unchecked} if filter${
        unchecked === 1 ? " was" : "s were"
      } not evaluated (over the ${IF_BUDGET_MS} ms budget of one dispatch, or too costly a file rule); counted as matched, so those hooks ran`,
      "dispatch",
    ));
  }
  return warnings;
}

/** True when the hook's definition is trusted, so its matcher is as trusted as its command. (Its
 * pinned files are checked after matching: the matcher is part of the hashed definition.) */
function runsOwnMatcher(h: HookHandler, bypassTrust: boolean): boolean {
  if (bypassTrust) return true;
  const status = definitionStatusOf(h);
  return status === "managed" || status === "trusted";
}

/**
 * What makes two Claude-dialect handlers the same hook for Claude Code (SPEC §8.1 r3): the type, the
 * command and every other field after normalization (the effective handler), and the environment it
 * gets (a plugin's `CLAUDE_PLUGIN_ROOT`: the same text in two plugins runs two different scripts).
 * Null for a mind-dialect handler, which is never collapsed.
 */
export function claudeIdentity(h: HookHandler): string | null {
  return h.dialect === "claude" ? canonicalJson({ handler: h.handler, env: h.env }) : null;
}

/**
 * Identical Claude-dialect handlers matched by one event run once, as Claude Code runs them (SPEC §8.1
 * r3): of each set of copies, one stands for all in `runs` and the others are not listed again. The
 * one that stands is the first in configuration order that may run (trusted, enabled); when none may,
 * the first. So a copy nobody trusted yet never silences a twin the user did trust. `verdicts` are the
 * matched hooks' trust with their pins checked (final). Returns the handlers kept and, for `list`
 * and `--explain`, each dropped copy with the key it is a copy of.
 */
export function collapseIdentical(
  matched: readonly HookHandler[],
  verdicts: ReadonlyMap<HookKey, TrustVerdict>,
): { handlers: HookHandler[]; copies: { copy: HookHandler; of: string }[] } {
  const groups = new Map<string, HookHandler[]>();
  for (const h of matched) {
    const id = claudeIdentity(h);
    if (id !== null) groups.set(id, [...(groups.get(id) ?? []), h]);
  }
  const standing = new Map<HookHandler, HookHandler>();
  for (const copies of groups.values()) {
    if (copies.length < 2) continue;
    const first = copies.find((h) => verdicts.get(h.key)?.skip === null) ?? copies[0];
    for (const h of copies) standing.set(h, first);
  }
  if (standing.size === 0) return { handlers: [...matched], copies: [] };
  const handlers: HookHandler[] = [];
  const copies: { copy: HookHandler; of: string }[] = [];
  for (const h of matched) {
    const first = standing.get(h);
    if (first === undefined || first === h) handlers.push(h);
    else copies.push({ copy: h, of: first.key });
  }
  return { handlers, copies };
}

/**
 * For `list` (SPEC §8.1 r3): each Claude-dialect handler that is a copy of an earlier one of its event
 * (the same matcher and the same {@link claudeIdentity}: the two always match together), by key, with
 * the key of the first in configuration order.
 */
export function duplicateCopies(handlers: readonly HookHandler[]): Map<string, string> {
  const first = new Map<string, string>();
  const out = new Map<string, string>();
  for (const h of handlers) {
    const id = claudeIdentity(h);
    if (id === null) continue;
    const at = `${h.event}\u0000${h.matcher ?? ""}\u0000${id}`;
    const original = first.get(at);
    if (original === undefined) first.set(at, h.key);
    else out.set(h.key, original);
  }
  return out;
}
