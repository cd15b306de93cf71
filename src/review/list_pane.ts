/**
 * The review's list pane (SPEC §14 r3), pure: the rows of the list model (src/review/list_model.ts)
 * painted as styled rows, scrolled so the selection shows, with the file header and the event header
 * of the first visible hook kept at the top when their own rows scrolled away, and a footer with the
 * position (`12/35`) and how many entries are above and below (`↑ 4 more`, `↓ 23 more`).
 * @module
 */
import type { ReviewApp } from "./app.ts";
import type { HookView } from "./catalog_view.ts";
import { EVENTS } from "../events/registry.ts";
import { displayWidth, fit } from "./text.ts";
import { sanitize } from "../util/terminal_text.ts";
import type { Row, Segment, Style } from "./rows.ts";
import { droppedRow } from "./panes.ts";
import type { ListRow } from "./list_model.ts";
import { peoplePath } from "./display.ts";

/** The status badges' colours. */
export const STATUS_STYLE: Record<string, Style> = {
  untrusted: "yellow",
  modified: "red",
  trusted: "green",
  managed: "cyan",
};

/** `text` cut to `width - 1` cells and padded to `width`: a column that never runs into the next. */
function cell(text: string, width: number): string {
  return fit(text, width - 1) + " ";
}

/** Column widths of the hook rows: as wide as their longest entry (the matcher within bounds). */
function columns(hooks: readonly HookView[], width: number) {
  return {
    badge: Math.max(0, ...hooks.map((h) => h.status.length + 2)) + 1,
    event: Math.max(0, ...hooks.map((h) => h.event.length)) + 1,
    matcher: Math.min(
      Math.max(8, Math.floor(width / 6)),
      Math.max(1, ...hooks.map((h) => displayWidth(sanitize(h.matcher ?? "*")))) + 1,
    ),
  };
}

/** One hook's row: marks, status, on/off, (its event, under a change group), matcher, what runs, name. */
function hookRow(h: HookView, selected: boolean, member: boolean, cols: ReturnType<typeof columns>): Row {
  const fill: Style[] = selected ? ["reverse"] : [];
  const matcher = h.matcher === null ? "*" : sanitize(h.matcher);
  return [
    // `!`: a warning is about this hook (its details say which).
    {
      text: `${selected ? ">" : " "}${h.warnings.length ? "!" : " "}${member ? "  " : ""}`,
      styles: h.warnings.length ? [...fill, "yellow", "bold"] : fill,
    },
    { text: cell(`[${h.status}]`, cols.badge), styles: [...fill, STATUS_STYLE[h.status], "bold"] },
    { text: cell(h.enabled ? "on" : "off", 4), styles: h.enabled ? fill : [...fill, "dim"] },
    ...(member ? [{ text: cell(h.event, cols.event), styles: fill }] : []),
    { text: cell(matcher, cols.matcher), styles: fill },
    { text: sanitize(h.summary), styles: h.enabled ? fill : [...fill, "dim"] },
    ...(h.hostRuns === null
      ? []
      : [{ text: `  · ${h.hostRuns} runs it itself`, styles: [...fill, "yellow"] as Style[] }]),
    // The name is the hook's own claim about itself: after what runs, never in its place.
    ...(h.name === null ? [] : [{ text: `  · ${sanitize(h.name)}`, styles: [...fill, "dim"] as Style[] }]),
  ];
}

/** The painted row of one list row. */
function paintRow(app: ReviewApp, r: ListRow, cols: ReturnType<typeof columns>): Row {
  switch (r.kind) {
    case "changes":
      return [{
        text: `── changed since trusted: one entry per change (Enter lists its hooks, t re-trusts them all)`,
        styles: ["dim"],
      }];
    case "file": {
      const g = r.group;
      const file = g?.file ?? r.source;
      const plugin = g?.hooks[0]?.plugin ? `  (plugin ${g.hooks[0].plugin})` : "";
      const shown = sanitize(file === "cli-override" ? "-c overrides" : peoplePath(file, app.view.paths));
      // A host's own settings: that host runs them whatever their status here (SPEC §2.8).
      const host = g?.hooks[0]?.hostRuns ?? null;
      return [
        { text: `── ${g ? `${g.layer}  ` : ""}${shown}${plugin}`, styles: ["dim", "bold"] },
        ...(host === null ? [] : [{ text: `  ${host} runs these itself`, styles: ["yellow"] as Style[] }]),
      ];
    }
    case "event":
      return [{ text: `  ${r.event}`, styles: ["bold"] }, { text: ` — ${EVENTS[r.event].meaning}`, styles: ["dim"] }];
    case "dropped":
      return droppedRow(r.warning);
    case "entry": {
      const e = app.list.entries[r.entry];
      const selected = r.entry === app.selected;
      if (e.kind === "hook") return hookRow(e.hook, selected, e.member, cols);
      const fill: Style[] = selected ? ["reverse"] : [];
      return [
        { text: `${selected ? ">" : " "} `, styles: fill },
        { text: cell("[modified]", cols.badge), styles: [...fill, "red", "bold"] },
        { text: `${e.open ? "▾" : "▸"} ${sanitize(e.group.label)}`, styles: [...fill, "bold"] },
      ];
    }
  }
}

/** Is `r` a header (a file's, or the change groups')? */
const isFileHeader = (r: ListRow) => r.kind === "file" || r.kind === "changes";

/**
 * The header rows kept at the top when the list starts at row `top`: its file's (or the change
 * groups' header), then its event's — or, for a hook listed under its open change group, that group.
 */
function stickyAbove(app: ReviewApp, rows: readonly ListRow[], top: number): number[] {
  if (top <= 0 || top >= rows.length || isFileHeader(rows[top])) return [];
  const isMember = (r: ListRow) => {
    const e = r.kind === "entry" ? app.list.entries[r.entry] : undefined;
    return e?.kind === "hook" && e.member;
  };
  let file = -1;
  let event = -1;
  for (let i = top - 1; i >= 0; i--) {
    const r = rows[i];
    if (event < 0 && r.kind === "event") event = i;
    // The group a member hook at the top belongs to: the first non-member entry above it.
    if (event < 0 && isMember(rows[top]) && r.kind === "entry" && !isMember(r)) event = i;
    if (isFileHeader(r)) {
      file = i;
      break;
    }
  }
  const out = file >= 0 ? [file] : [];
  if (event >= 0 && rows[top].kind !== "event") out.push(event);
  return out;
}

/** The list pane: `height` rows (the footer not included), and the footer's text. */
export function listPane(app: ReviewApp, width: number, height: number): { rows: Row[]; footer: string } {
  const { rows, entryRow, entries } = app.list;
  const cols = columns(app.view.hooks, width);
  const sel = entryRow[app.selected] ?? 0;
  const room = (top: number) => Math.max(1, height - stickyAbove(app, rows, top).length);
  let top = Math.max(0, Math.min(app.listTop, rows.length - 1));
  if (sel < top) {
    // Scrolling up to it: the headers right above it come into view with it.
    top = sel;
    while (top > 0 && rows[top - 1].kind !== "entry" && rows[top - 1].kind !== "dropped") top--;
  }
  while (sel >= top + room(top) && top < sel) top++;
  // At the last entry, what follows it (its file's dropped entries) comes into view too.
  if (app.selected === entries.length - 1) {
    while (top + room(top) < rows.length && sel > top) top++;
  }
  app.listTop = top;
  const sticky = stickyAbove(app, rows, top);
  const shown = [...sticky, ...Array.from({ length: room(top) }, (_, i) => top + i).filter((i) => i < rows.length)];
  const out = shown.map((i) => paintRow(app, rows[i], cols));
  if (rows.length === 0) out.push([{ text: " (no hooks)", styles: ["dim"] }]);
  const last = top + room(top) - 1;
  const above = entryRow.filter((r) => r < top).length;
  const below = entryRow.filter((r) => r > last).length;
  const parts = [entries.length === 0 ? "0/0" : `${app.selected + 1}/${entries.length}`];
  if (above > 0) parts.push(`↑ ${above} more`);
  if (below > 0) parts.push(`↓ ${below} more`);
  return { rows: out, footer: parts.join(" · ") };
}

/** The footer as a rule across the pane: `── 12/35 · ↓ 23 more ──── / search · n next to review ──`. */
export function footerRow(footer: string, width: number, hints: string): Segment[] {
  const left = `── ${footer} `;
  const right = hints === "" ? "" : ` ${hints} ──`;
  const fill = Math.max(1, width - displayWidth(left) - displayWidth(right));
  const line = displayWidth(left) + fill + displayWidth(right) <= width ? `${left}${"─".repeat(fill)}${right}` : left;
  return [{ text: line, styles: ["dim"] }];
}
