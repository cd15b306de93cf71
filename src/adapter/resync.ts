/**
 * `install --sync` kept in step (SPEC §6 r3): what a `--sync` install registers for the hooks in reach
 * (the events they are on, Claude Code's tools their matchers name, and `SessionStart` always, so that a
 * session start can say what will not run), and the re-sync that `trust`, `untrust`, `enable`,
 * `disable`, `project trust` and `review` run afterwards over every recorded `--sync` install whose needed
 * registrations changed — one printed line each.
 * @module
 */
import type { EventName } from "../events/names.ts";
import { loadCatalog } from "../config/discovery.ts";
import { configOptionsOf, type HomeSettings } from "../engine/settings.ts";
import { HOST_DISPLAY_NAMES, hostEventName } from "./hosts.ts";
import type { Host } from "./host.ts";
import { fail, ok, type Result } from "../util/result.ts";
import { neededRegistrations } from "./sync.ts";
import { holdsDelegatingEntries, planEdit, SettingsError } from "./settings.ts";
import {
  eventsOf,
  type InstallRecord,
  readInstalls,
  sameEvents,
  updateInstalls,
  withoutRecord,
  withRecord,
} from "./installs.ts";
import { readSettingsText, settingsTarget, writeSettingsText } from "./settings_target.ts";

/**
 * What `install <host> --sync` registers: the events (and matchers) of the hooks configured now, as
 * discovery loads them from `searchFrom` with `settings`' home, profile and requirements (any trust
 * status: trusting a hook later needs no new sync), and `SessionStart` always.
 */
export async function syncedRegistrations(
  host: Host,
  searchFrom: string,
  settings: HomeSettings,
): Promise<Result<Map<EventName, string | null>>> {
  const catalog = await loadCatalog(configOptionsOf(settings, searchFrom));
  if (!catalog.ok) return fail(catalog.error);
  const out = neededRegistrations(host, catalog.value.handlers);
  if (hostEventName(host, "SessionStart") !== null && !out.has("SessionStart")) out.set("SessionStart", null);
  return ok(out);
}

/** The host's names of `events`, with a tool list when there is one: `PostToolUse (Edit|Write)`. */
function spoken(host: Host, events: Partial<Record<EventName, string | null>>, keys: EventName[]): string {
  return keys.map((e) => {
    const name = hostEventName(host, e) ?? e;
    const m = events[e];
    return m === null || m === undefined || m === "*" ? name : `${name} (${m})`;
  }).join(", ");
}

/** What changed between two registrations, in words: `adds Stop; drops PreCompact; now PostToolUse (Edit)`. */
export function changeWords(
  host: Host,
  before: Partial<Record<EventName, string | null>>,
  after: Partial<Record<EventName, string | null>>,
): string {
  const keys = (o: object) => Object.keys(o) as EventName[];
  const added = keys(after).filter((e) => !Object.hasOwn(before, e));
  const dropped = keys(before).filter((e) => !Object.hasOwn(after, e));
  const changed = keys(after).filter((e) => Object.hasOwn(before, e) && before[e] !== after[e]);
  const parts: string[] = [];
  if (added.length) parts.push(`adds ${spoken(host, after, added)}`);
  if (changed.length) parts.push(`now ${spoken(host, after, changed)}`);
  if (dropped.length) parts.push(`drops ${spoken(host, before, dropped)}`);
  return parts.join("; ");
}

/** The outcome of re-syncing one record: the line to print, and the record as it is now (null: forgotten). */
async function resyncOne(
  r: InstallRecord,
  settings: HomeSettings,
): Promise<{ line: string | null; record: InstallRecord | null }> {
  const name = HOST_DISPLAY_NAMES[r.host];
  const needed = await syncedRegistrations(r.host, r.searchFrom, settings);
  if (!needed.ok) return { line: `${r.file}: ${name} not re-synced: ${needed.error}`, record: r };
  const events = eventsOf(needed.value);
  if (sameEvents(events, r.events)) return { line: null, record: r };
  const targetOf = await settingsTarget(r.file, r.project);
  if (!targetOf.ok) return { line: `${r.file}: ${name} not re-synced: ${targetOf.error}`, record: r };
  const target = targetOf.value;
  const text = await readSettingsText(target.target).catch(() => null);
  // The entries are gone (removed by hand, or the file): install put them there, and nobody wants them back.
  if (text === null || !holdsDelegatingEntries(r.host, text)) {
    return {
      line: `${r.file}: no mind-hooks entries any more; forgotten (install again to keep it in step)`,
      record: null,
    };
  }
  let plan;
  try {
    plan = planEdit(r.host, text, {
      launcher: r.launcher,
      uninstall: false,
      file: r.file,
      scope: { project: r.project ?? undefined, local: r.local },
      only: needed.value,
    });
  } catch (e) {
    if (e instanceof SettingsError) return { line: `${name} not re-synced: ${e.message}`, record: r };
    throw e;
  }
  if (plan.changed && plan.text !== null) await writeSettingsText(target, plan.text);
  return {
    line: `${r.file}: ${name} re-synced (--sync): ${changeWords(r.host, r.events, events)}`,
    record: { ...r, events },
  };
}

/**
 * Re-syncs every recorded `--sync` install whose needed registrations changed (SPEC §6 r3); returns one
 * line per install changed, forgotten or not re-synced (why). Never throws for one install's trouble.
 */
export async function resyncInstalls(settings: HomeSettings): Promise<string[]> {
  const { installs } = await readInstalls(settings.home);
  const lines: string[] = [];
  /** What changed, by settings file: applied under the lock to the records as they are then. */
  const changes = new Map<string, InstallRecord | null>();
  for (const r of installs.filter((x) => x.sync)) {
    let out: { line: string | null; record: InstallRecord | null };
    try {
      out = await resyncOne(r, settings);
    } catch (e) {
      out = {
        line: `${r.file}: ${HOST_DISPLAY_NAMES[r.host]} not re-synced: ${e instanceof Error ? e.message : e}`,
        record: r,
      };
    }
    if (out.line !== null) lines.push(out.line);
    if (out.record !== r) changes.set(r.file, out.record);
  }
  if (changes.size > 0) {
    const updated = await updateInstalls(settings.home, (now) => {
      let records = now;
      for (const [file, rec] of changes) {
        records = rec === null ? withoutRecord(records, file) : withRecord(records, rec);
      }
      return records;
    });
    if (!updated.ok) lines.push(`installs.json not updated: ${updated.error}`);
  }
  return lines;
}
