/**
 * The review's list as entries and rows (SPEC §14 r3), pure: what can be selected (a hook, or a change
 * group standing for every hook whose only change is the same files), and the rows around them — a
 * header per layer file, a header per event with the event's one-line meaning, the dropped entries of
 * a file. Change groups come first, under their own header; a group's hooks show under it only while
 * it is open. Also: which entries need review (`n`) and which match a search (`/`).
 * @module
 */
import type { Warning } from "../config/warnings.ts";
import type { EventName } from "../events/names.ts";
import type { CatalogView, HookGroup, HookView } from "./catalog_view.ts";
import type { ChangeGroup } from "./change_groups.ts";

/** What can be selected. `member`: a hook shown under its open change group. */
export type Entry =
  | { kind: "hook"; hook: HookView; member: boolean }
  | { kind: "change"; group: ChangeGroup; open: boolean };

/** One row of the list pane. */
export type ListRow =
  | { kind: "changes"; count: number }
  | { kind: "file"; group: HookGroup | null; source: string }
  | { kind: "event"; event: EventName }
  | { kind: "entry"; entry: number }
  | { kind: "dropped"; warning: Warning };

/** The list: its entries in display order, its rows, and the row of each entry. */
export type ListModel = { entries: Entry[]; rows: ListRow[]; entryRow: number[] };

/** The identity of an entry that survives a reload: a hook's key, a group's first key. */
export function entryId(e: Entry): string {
  return e.kind === "hook" ? `hook:${e.hook.key}` : `change:${e.group.keys[0]}`;
}

/** The list of `view`, the change groups in `open` (by their first key) shown open. */
export function buildList(view: CatalogView, open: ReadonlySet<string>): ListModel {
  const entries: Entry[] = [];
  const rows: ListRow[] = [];
  const entryRow: number[] = [];
  const byKey = new Map(view.hooks.map((h) => [h.key, h]));
  const add = (e: Entry) => {
    entryRow.push(rows.length);
    rows.push({ kind: "entry", entry: entries.length });
    entries.push(e);
  };
  const grouped = new Set(view.changeGroups.flatMap((g) => g.keys));
  if (view.changeGroups.length > 0) rows.push({ kind: "changes", count: view.changeGroups.length });
  for (const g of view.changeGroups) {
    const isOpen = open.has(g.keys[0]);
    add({ kind: "change", group: g, open: isOpen });
    if (!isOpen) continue;
    for (const k of g.keys) {
      const h = byKey.get(k);
      if (h) add({ kind: "hook", hook: h, member: true });
    }
  }
  const dropped = (source: string) => view.dropped.filter((w) => w.source === source);
  const listed = new Set<string>();
  for (const g of view.groups) {
    const hooks = g.hooks.filter((h) => !grouped.has(h.key));
    const drops = listed.has(g.source) ? [] : dropped(g.source);
    listed.add(g.source);
    if (hooks.length === 0 && drops.length === 0) continue;
    rows.push({ kind: "file", group: g, source: g.source });
    // Under their event, in the order the events first appear in the file.
    const events = [...new Set(hooks.map((h) => h.event))];
    for (const event of events) {
      rows.push({ kind: "event", event });
      for (const h of hooks) if (h.event === event) add({ kind: "hook", hook: h, member: false });
    }
    for (const w of drops) rows.push({ kind: "dropped", warning: w });
  }
  // Files whose every hook was dropped (or that did not load) have no group of their own.
  for (const source of new Set(view.dropped.map((w) => w.source))) {
    if (listed.has(source)) continue;
    rows.push({ kind: "file", group: null, source });
    for (const w of dropped(source)) rows.push({ kind: "dropped", warning: w });
  }
  return { entries, rows, entryRow };
}

/** True for an entry that needs review: a change group, or an untrusted or modified hook (not managed). */
export function needsReview(e: Entry): boolean {
  if (e.kind === "change") return true;
  return !e.member && e.hook.layer !== "managed" && (e.hook.status === "untrusted" || e.hook.status === "modified");
}

/** The next entry after `from` (wrapping around) that satisfies `pred`, or null. */
export function nextEntry(entries: readonly Entry[], from: number, pred: (e: Entry) => boolean): number | null {
  for (let step = 1; step <= entries.length; step++) {
    const i = (from + step) % entries.length;
    if (pred(entries[i])) return i;
  }
  return null;
}

/** True when `h` matches a search: its command, key (and key tail), file, name, matcher or event. */
export function hookMatches(h: HookView, query: string): boolean {
  const q = query.toLowerCase();
  return [h.summary, h.key, h.tail, h.file ?? "", h.place, h.name ?? "", h.matcher ?? "", h.event]
    .some((field) => field.toLowerCase().includes(q));
}

/**
 * The first hook matching `query` at or after entry `from` of `list` (wrapping around), searched in
 * display order with every change group open (a match inside a closed group is found too), with its
 * position among the matches; null when none matches.
 */
export function findHook(
  view: CatalogView,
  list: ListModel,
  query: string,
  from: number,
): { hook: HookView; position: number; matches: number } | null {
  const all = buildList(view, new Set(view.changeGroups.map((g) => g.keys[0]))).entries;
  const hooks = all.flatMap((e) => e.kind === "hook" ? [e.hook] : []);
  const matches = hooks.filter((h) => hookMatches(h, query));
  if (matches.length === 0) return null;
  // Where `from` is among the hooks: the first hook entry at or after it.
  const start = list.entries.slice(Math.max(0, from)).find((e) => e.kind === "hook");
  const startAt = start?.kind === "hook" ? hooks.indexOf(start.hook) : hooks.length;
  const hit = matches.find((h) => hooks.indexOf(h) >= startAt) ?? matches[0];
  return { hook: hit, position: matches.indexOf(hit) + 1, matches: matches.length };
}
