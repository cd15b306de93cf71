/**
 * Adapter mode (`dispatch --protocol claude|codex|gemini|copilot`): the host protocols mind-hooks can stand
 * in for, one module each (`claude.ts`, `codex.ts`, `gemini.ts`, `copilot.ts`) behind the common
 * {@link HostAdapter} shape of `host.ts`. Every host's event table comes from each event's `hosts` fact.
 * @module
 */
import type { JsonObject } from "../events/types.ts";
import type { EventName } from "../events/names.ts";
import { HOST_NAMES as HOSTS_LIST, HOST_UNKNOWN } from "../events/types.ts";
import type { DispatchResult } from "../schema/result.ts";
import { CLAUDE } from "./claude.ts";
import { CODEX } from "./codex.ts";
import { COPILOT } from "./copilot.ts";
import { GEMINI } from "./gemini.ts";
import { type Host, type HostAdapter, hostEvents, type MappedInput, noHostHints, perHost } from "./host.ts";
import type { HostHints } from "../engine/io.ts";

export type { Host, MappedInput } from "./host.ts";

/** Every host adapter, by the name `--protocol` and `install` spell it. */
export const ADAPTERS: Readonly<Record<Host, HostAdapter>> = {
  claude: CLAUDE,
  codex: CODEX,
  gemini: GEMINI,
  copilot: COPILOT,
};

/** The hosts, as `--protocol` and `install` spell them. */
export const HOSTS: readonly Host[] = HOSTS_LIST;

/** A host's display name, for messages. */
export const HOST_NAMES: Record<Host, string> = perHost((h) => ADAPTERS[h].name);

/**
 * The events `install` registers for each host by default: those the host raises that mind also has (each
 * event's `hosts` fact), less the host's `notByDefault` ones (Gemini's PreCompress). A host event mind has
 * no counterpart for (`Notification`, `BeforeModel`, …) is answered with nothing if it arrives anyway.
 */
export const HOST_EVENTS: Record<Host, readonly EventName[]> = perHost((h) =>
  hostEvents(h).map((m) => m.event).filter((e) => !ADAPTERS[h].install.notByDefault.includes(e))
);

/**
 * The placeholder put in a required string field the host did not send (`model` for Claude Code, a
 * `turn_id` when no `prompt_id` stands in for it, a missing `tool_use_id`, `agent_id`, `agent_type`).
 * Documented in the README; a hook can test for it.
 */
export const UNKNOWN = HOST_UNKNOWN;

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
