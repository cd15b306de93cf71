/**
 * The record of what `install` wrote (SPEC §6 r3, "a synced host never goes stale silently"):
 * `$MIND_HOME/installs.json`, one entry per settings file, saying which host it delegates, where, with
 * which launcher, whether it is a `--sync` install, where that looked for hooks, and which events (with
 * their matchers) it registers now. `trust`, `untrust`, `enable`, `disable`, `project trust` and `review`
 * re-sync the `--sync` ones (src/adapter/resync.ts), a session start through an adapter reports a
 * trusted hook its host was not told about ({@link unannouncedLine}), and `doctor` checks them.
 *
 * Written by the one atomic writer, owner-only, under its lock ({@link updateInstalls}). A record that does not read as one is left out (and a
 * file that does not parse reads as none, with the reason for `doctor`): it is mind-hooks' own memo,
 * never a reason for a command to fail.
 * @module
 */
import type { EventName } from "../events/names.ts";
import { EVENT_NAMES } from "../events/names.ts";
import { EVENTS } from "../events/registry.ts";
import { type Host, isHost } from "./host_names.ts";
import type { HookHandler } from "../config/discovery.ts";
import type { HookKey } from "../trust/hash.ts";
import type { TrustVerdict } from "../trust/verdict.ts";
import { isObject } from "../util/json.ts";
import { messageLine, oneLine, sanitize } from "../util/terminal_text.ts";
import { dirname, isInside, join } from "../util/paths.ts";
import { OWNER_ONLY, writeFileAtomic } from "../util/atomic_file.ts";
import { PEOPLE_LOCK_WAIT_MS, withFileLock } from "../util/file_lock.ts";
import { fail, ok, type Result } from "../util/result.ts";
import { EVERY_TOOL, neededRegistrations } from "./sync.ts";
import { hostEventName } from "./hosts.ts";

/** One install, as recorded. */
export type InstallRecord = {
  host: Host;
  /** The settings file install edited (absolute, as printed). */
  file: string;
  /** The directory of a project install (`--project`, `--local`; real), or null for the user's settings. */
  project: string | null;
  /** Claude Code's `--local` (`.claude/settings.local.json`). */
  local: boolean;
  /** The launcher the entries run (`--command`). */
  launcher: string;
  /** `--sync`: only what the hooks in reach need (kept in step); else every event the host maps. */
  sync: boolean;
  /** Where `--sync` looked for hooks: the project directory, else the directory install ran in. */
  searchFrom: string;
  /** What the file registers now: each mind event → its host matcher (`*`, a tool list) or null. */
  events: Partial<Record<EventName, string | null>>;
};

/** The file's path. */
export function installsPath(home: string): string {
  return join(home, "installs.json");
}

/** One record read back, or null when it is not one (hand-edited, or from another version). */
function recordOf(v: unknown): InstallRecord | null {
  if (!isObject(v)) return null;
  const { host, file, project, local, launcher, sync, searchFrom, events } = v;
  if (!isHost(host) || typeof file !== "string" || file === "") return null;
  if (project !== null && typeof project !== "string") return null;
  if (typeof launcher !== "string" || typeof sync !== "boolean" || typeof searchFrom !== "string") return null;
  if (!isObject(events)) return null;
  const out: Partial<Record<EventName, string | null>> = {};
  for (const [e, m] of Object.entries(events)) {
    if (!(EVENT_NAMES as readonly string[]).includes(e) || (m !== null && typeof m !== "string")) return null;
    out[e as EventName] = m;
  }
  return { host, file, project, local: local === true, launcher, sync, searchFrom, events: out };
}

/**
 * Why `path` may not be read as the record: anything but a regular file (a FIFO would block the
 * reader forever, a device never end) is refused, not opened (SPEC §6 r4). Null when it is a
 * regular file, or absent.
 */
async function refusal(path: string): Promise<string | null> {
  try {
    if ((await Deno.stat(path)).isFile) return null;
    return `${path} is not a regular file; refused, not read`;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return null;
    return `${path} cannot be read (${e instanceof Error ? e.name : e})`;
  }
}

/** The recorded installs, and why the file could not be read (null when it is fine or absent). */
export async function readInstalls(home: string): Promise<{ installs: InstallRecord[]; problem: string | null }> {
  const path = installsPath(home);
  const refused = await refusal(path);
  if (refused !== null) return { installs: [], problem: refused };
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return { installs: [], problem: null };
    return { installs: [], problem: `${path} cannot be read (${e instanceof Error ? e.name : e})` };
  }
  try {
    const data = JSON.parse(text);
    const list = isObject(data) && Array.isArray(data.installs) ? data.installs : null;
    if (list === null) return { installs: [], problem: `${path} holds no "installs" list` };
    return { installs: list.map(recordOf).filter((r): r is InstallRecord => r !== null), problem: null };
  } catch {
    return { installs: [], problem: `${path} does not parse as JSON` };
  }
}

/**
 * Changes the records: `change` gets them as they are now and returns the new list, which replaces
 * the file atomically (owner-only). The read-modify-write holds `installs.json.lock`, so concurrent
 * installs and re-syncs never lose each other's records (SPEC §6 r4). A file that is not a regular
 * file is refused (neither read nor replaced); one that does not parse is replaced. Creates the home.
 */
export async function updateInstalls(
  home: string,
  change: (installs: InstallRecord[]) => InstallRecord[],
): Promise<Result<void>> {
  try {
    await Deno.mkdir(home, { recursive: true });
    const locked = await withFileLock(`${installsPath(home)}.lock`, async (): Promise<Result<void>> => {
      const refused = await refusal(installsPath(home));
      if (refused !== null) return fail(refused);
      const read = await readInstalls(home);
      const text = JSON.stringify({ version: 1, installs: change(read.installs) }, null, 2) + "\n";
      await writeFileAtomic(installsPath(home), text, { mode: OWNER_ONLY });
      return ok(undefined);
    }, PEOPLE_LOCK_WAIT_MS);
    return locked.ok ? locked.value : locked;
  } catch (e) {
    return fail(`${installsPath(home)} cannot be written (${messageLine(e)})`);
  }
}

/** The records with `record` in place of the one for its file (added when there is none). */
export function withRecord(installs: readonly InstallRecord[], record: InstallRecord): InstallRecord[] {
  const at = installs.findIndex((r) => r.file === record.file);
  return at < 0 ? [...installs, record] : installs.map((r, i) => i === at ? record : r);
}

/** The records without the one for `file`. */
export function withoutRecord(installs: readonly InstallRecord[], file: string): InstallRecord[] {
  return installs.filter((r) => r.file !== file);
}

/** A registration map as a record's `events`, in the order of SPEC §2.2's event list. */
export function eventsOf(registered: ReadonlyMap<EventName, string | null>): Partial<Record<EventName, string | null>> {
  return Object.fromEntries(EVENT_NAMES.filter((e) => registered.has(e)).map((e) => [e, registered.get(e)!]));
}

/** True when two registrations say the same. */
export function sameEvents(
  a: Partial<Record<EventName, string | null>>,
  b: Partial<Record<EventName, string | null>>,
): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]) as Set<EventName>;
  return [...keys].every((k) => Object.hasOwn(a, k) && Object.hasOwn(b, k) && a[k] === b[k]);
}

/** The records of `host` whose settings the host reads in `cwd`: the user's, and a project install above it. */
export function installsInReach(installs: readonly InstallRecord[], host: Host, cwd: string): InstallRecord[] {
  return installs.filter((r) => r.host === host && (r.project === null || isInside(r.project, cwd)));
}

/** The `install` command line that re-syncs `r`. */
export function resyncCommand(r: InstallRecord): string {
  const where = r.project === null ? "" : r.local ? ` --local` : ` --project ${r.project}`;
  return `mind-hooks install ${r.host} --sync${where}`;
}

/** True when the registered matcher covers every tool of the needed one (both a `|` list or `*`). */
function covers(registered: string | null, needed: string | null): boolean {
  if (registered === null || registered === EVERY_TOOL || needed === null) return true;
  if (needed === EVERY_TOOL) return false;
  const have = new Set(registered.split("|"));
  return needed.split("|").every((t) => have.has(t));
}

/**
 * Whether what `installs` told their host is known event by event: some install in reach is recorded,
 * and each was made with `--sync`. Only then can a hook be missing from what the host was told.
 */
export function tellsEveryEvent(installs: readonly InstallRecord[]): boolean {
  return installs.length > 0 && installs.every((r) => r.sync);
}

/**
 * The line a session start through `host`'s adapter carries (SPEC §6 r3) when a hook that would run
 * (trusted or managed, enabled) is on an event — or, for Claude Code's tool events, a tool — that no
 * recorded install in reach registered: `mind-hooks: 1 hook on PostToolUse Edit will not fire under
 * Claude Code: run mind-hooks install claude --sync`. Null when nothing is missing, when no install in
 * reach is recorded (what the host was told is then unknown), or when one registers everything.
 */
export function unannouncedLine(
  host: Host,
  hostName: string,
  installs: readonly InstallRecord[],
  handlers: readonly HookHandler[],
  verdicts: ReadonlyMap<HookKey, TrustVerdict>,
): string | null {
  if (!tellsEveryEvent(installs)) return null;
  const told = new Map<EventName, string | null>();
  for (const r of installs) {
    for (const [e, m] of Object.entries(r.events) as [EventName, string | null][]) {
      const was = told.get(e);
      told.set(e, !told.has(e) ? m : was === EVERY_TOOL || m === EVERY_TOOL ? EVERY_TOOL : [was, m].join("|"));
    }
  }
  const missing: { hook: HookHandler; on: string }[] = [];
  for (const h of handlers) {
    if (verdicts.get(h.key)?.skip !== null) continue;
    const hostEvent = hostEventName(host, h.event);
    if (hostEvent === null) continue;
    const needed = neededRegistrations(host, [h]).get(h.event) ?? null;
    if (told.has(h.event) && covers(told.get(h.event) ?? null, needed)) continue;
    const matcher = EVENTS[h.event].matcher.kind === "tool" && h.matcher ? ` ${sanitize(oneLine(h.matcher, 40))}` : "";
    missing.push({ hook: h, on: `${hostEvent}${matcher}` });
  }
  if (missing.length === 0) return null;
  const n = missing.length;
  const where = [...new Set(missing.map((m) => m.on))].slice(0, 3).join(", ");
  const fix = installs.find((r) => r.project === null) ?? installs[0];
  return `mind-hooks: ${n} hook${n === 1 ? "" : "s"} on ${where} will not fire under ${hostName}: run ${
    resyncCommand(fix)
  }`;
}

/** The folder of a record's file, for the sandbox's grants. */
export function recordFolder(r: InstallRecord): string {
  return dirname(r.file);
}
