/**
 * What `install <host> --sync` registers: only the host events a configured mind hook is on, and for
 * Claude Code's tool events only the tools those hooks' matchers can match. A host runs its hook
 * command for every registered event, so every tool call pays for one `mind-hooks dispatch` start per
 * registered tool event, whether or not a mind hook matches (README, "Performance"); an event or tool
 * left out costs nothing.
 *
 * Over-approximation is the rule: a matcher this cannot read as a list of tool names (a regex, `*`)
 * registers the event for every tool; a host whose matcher semantics are not verified here (Codex,
 * Gemini CLI, Copilot CLI) gets every tool. Claude Code reads a matcher as a regular expression over
 * its tool name, so the literal list `Edit|apply_patch` matches at least those tools.
 * @module
 */
import type { EventName } from "../events/names.ts";
import { EVENTS } from "../events/registry.ts";
import { type Host, hostEvents } from "./hosts.ts";
import { compileMatcher } from "../matching/matcher.ts";
import { toolMatchSubjects } from "../matching/tool_names.ts";

/** A configured handler as far as registration cares: its event and its matcher as written. */
export type ConfiguredHook = { event: EventName; matcher?: string | null };

/** The host matcher every tool. */
export const EVERY_TOOL = "*";

/**
 * The host tool names a mind tool matcher can match, as a literal `|` list; {@link EVERY_TOOL} when it
 * is not a list of names. A name matches its aliases too (SPEC §4: `apply_patch` sees `Edit`), so the
 * host's names that an alias list can reach are those names and their aliases.
 */
export function hostToolList(matchers: readonly (string | null | undefined)[]): string {
  const names = new Set<string>();
  for (const m of matchers) {
    const compiled = compileMatcher(m);
    if (!compiled.ok) continue; // an invalid matcher's group never runs
    if (compiled.value.kind !== "exact") return EVERY_TOOL;
    for (const v of compiled.value.values) for (const n of toolMatchSubjects(v)) names.add(n);
  }
  // Only names a regex reads literally: anything else could match less than the name.
  if (names.size === 0 || [...names].some((n) => !/^[A-Za-z0-9_-]+$/.test(n))) return EVERY_TOOL;
  return [...names].sort().join("|");
}

/**
 * The events to register for `host` and, for each, its matcher (`*`, a tool list, or null for an event
 * without matchers), given the hooks configured now. An event that ends the session (its async hooks,
 * spill files and loop guard) is registered whenever anything is.
 */
export function neededRegistrations(host: Host, hooks: readonly ConfiguredHook[]): Map<EventName, string | null> {
  const byEvent = new Map<EventName, (string | null | undefined)[]>();
  for (const h of hooks) byEvent.set(h.event, [...(byEvent.get(h.event) ?? []), h.matcher]);
  const out = new Map<EventName, string | null>();
  for (const { event } of hostEvents(host)) {
    const matchers = byEvent.get(event);
    if (!matchers) continue;
    if (EVENTS[event].matcher.kind !== "tool") out.set(event, null);
    else out.set(event, host === "claude" ? hostToolList(matchers) : EVERY_TOOL);
  }
  if (out.size > 0) {
    for (const { event } of hostEvents(host)) {
      if (EVENTS[event].endsSession && !out.has(event)) {
        out.set(event, EVENTS[event].matcher.kind === "tool" ? EVERY_TOOL : null);
      }
    }
  }
  return out;
}
