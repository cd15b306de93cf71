/**
 * Adapter mode (`dispatch --protocol claude|codex|gemini|copilot`): the host protocols mind-hooks can stand
 * in for, one module each (`claude.ts`, `codex.ts`, `gemini.ts`, `copilot.ts`) behind the common
 * {@link HostAdapter} shape of `host.ts`. Each adapter owns its event map; this module reads them.
 * @module
 */
import type { EventName } from "../events/names.ts";
import type { DispatchResult } from "../schema/result.ts";
import type { JsonObject } from "../util/json.ts";
import { CLAUDE } from "./claude.ts";
import { CODEX } from "./codex.ts";
import { COPILOT } from "./copilot.ts";
import { GEMINI } from "./gemini.ts";
import { type Host, type HostAdapter, mappedEvents, type MappedInput, noHostHints, perHost } from "./host.ts";
import type { HostHints } from "../engine/types.ts";

export type { Host, MappedInput } from "./host.ts";
export { UNKNOWN } from "./host.ts";
export { HOST_DISPLAY_NAMES, HOSTS, isHost } from "./host_names.ts";

/** Every host adapter, by the name `--protocol` and `install` spell it. */
export const ADAPTERS: Readonly<Record<Host, HostAdapter>> = {
  claude: CLAUDE,
  codex: CODEX,
  gemini: GEMINI,
  copilot: COPILOT,
};

/** The events `host` raises that mind also has (its adapter's event map), with the host's own name. */
export function hostEvents(host: Host): readonly { event: EventName; hostEvent: string }[] {
  return mappedEvents(ADAPTERS[host].events);
}

/** `host`'s own name of `event`, or null when the host has no such event. */
export function hostEventName(host: Host, event: EventName): string | null {
  return ADAPTERS[host].events[event];
}

/**
 * The events `install` registers for each host by default: those the host raises that mind also has (its
 * adapter's event map), less the host's `notByDefault` ones. A host event mind has no counterpart for
 * (`Notification`, `BeforeModel`, …) is answered with nothing if it arrives anyway.
 */
export const HOST_EVENTS: Record<Host, readonly EventName[]> = perHost((h) =>
  hostEvents(h).map((m) => m.event).filter((e) => !ADAPTERS[h].install.notByDefault.includes(e))
);

/** Maps a host's hook input (already parsed JSON) to a §5 event (see each host's module). */
export function mapHostInput(host: Host, raw: unknown, cwd: string, given?: string): MappedInput {
  return ADAPTERS[host].mapInput(raw, cwd, given);
}

/** Maps a dispatch result to the host's hook stdout object, or null when there is nothing to say. */
export function mapResultToHost(
  host: Host,
  event: EventName,
  result: DispatchResult,
  hostInput: JsonObject,
  hints: HostHints = noHostHints(),
): JsonObject | null {
  return ADAPTERS[host].mapOutput(event, result, hostInput, hints);
}
