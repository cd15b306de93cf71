/**
 * The review screen as text: a pure function from the app state and the
 * terminal size to the rows to paint. Layout: a title bar, the project line,
 * the hook list above the details pane (side by side from 180 columns: below
 * that a full-width list shows more of each command), a rule with the list's
 * position, the message bar, and the key legend, which is always shown; `?`
 * replaces the body with every key, and a confirmation takes the whole body.
 *
 * Every piece of text that comes from a config file goes through `sanitize`
 * before it is measured and painted, so a hook cannot smuggle escape
 * sequences onto the screen. Each row is exactly as wide as the terminal and
 * every cut ends in `…` (SPEC §14 r3). Colour is SGR only and is left out
 * entirely under `NO_COLOR`; the selected row also carries a `>` marker so the
 * selection never depends on colour.
 * @module
 */
import { replayRows } from "./replay_pane.ts";
import type { ReviewApp } from "./app.ts";
import { COVERAGE_NOTE } from "./coverage.ts";
import { confirmRows, type RowKit } from "./confirm.ts";
import { displayWidth, prefix, truncate, wrap } from "./text.ts";
import { sanitize } from "../util/terminal_text.ts";
import { field, type Row, type Segment, type Style, text } from "./rows.ts";
import { emptyRows, groupDetails, helpRows, hookDetails, warningDetails } from "./panes.ts";
import { footerRow, listPane } from "./list_pane.ts";
import type { PageSizes } from "./app.ts";

const SGR: Record<Style, string> = {
  bold: "1",
  dim: "2",
  reverse: "7",
  red: "31",
  green: "32",
  yellow: "33",
  cyan: "36",
  magenta: "35",
};
const COLOURS: ReadonlySet<Style> = new Set(["red", "green", "yellow", "cyan", "magenta"]);

/** Rendering options. */
export type RenderOptions = { columns: number; rows: number; color: boolean };

/**
 * `row` as exactly `width` cells: padded, or — when its segments together are wider — cut at
 * `width - 1` cells with `…` in the last cell, whichever segment the cut falls in (SPEC §14 r3).
 */
function paint(row: Row, width: number, color: boolean, fill: Style[] = []): string {
  let out = "";
  let used = 0;
  // Sanitised again here (idempotent), so no text reaches the screen unescaped even if a caller forgot.
  const texts = row.map((seg) => sanitize(seg.text));
  const cut = texts.reduce((n, t) => n + displayWidth(t), 0) > width;
  const budget = cut ? width - 1 : width;
  const styled = (t: string, styles: Style[]) => {
    const s = styles.filter((x) => color || !COLOURS.has(x));
    return s.length ? `\x1b[${s.map((x) => SGR[x]).join(";")}m${t}\x1b[0m` : t;
  };
  for (const [i, seg] of row.entries()) {
    if (width <= 0) break;
    let t = texts[i];
    const last = cut && used + displayWidth(t) >= budget;
    if (last) t = prefix(t, budget - used) + "…";
    used += displayWidth(t);
    out += styled(t, [...fill, ...(seg.styles ?? [])]);
    if (last) break;
  }
  if (used < width) out += styled(" ".repeat(width - used), fill);
  return out;
}

/** The legend items, shown on every frame (`?` shows every key, src/review/panes.ts). */
function legend(app: ReviewApp): string[] {
  if (app.confirm !== null) {
    return ["y/Enter trust exactly this", "n/Esc cancel", "↓/PgDn details", "End last", "Home summary"];
  }
  if (app.search !== null) return ["Enter keep this hook", "Esc go back", "Backspace delete"];
  const nav = ["↑/↓ move", "/ search", "n next to review"];
  const end = ["w warnings", "? help", "q quit"];
  // With the trust store unreadable, no key that writes trust is offered (SPEC §6).
  if (!app.canWriteTrust) return [...nav, ...end.slice(0, 1), "r reload", ...end.slice(1)];
  const p = app.catalog.project;
  const group = app.currentGroup !== undefined;
  return [
    ...nav,
    group ? "t re-trust these" : "t trust",
    "A trust all",
    ...(group ? ["Enter list them"] : []),
    p ? (p.trusted ? "p untrust project" : "p trust project") : "p project",
    ...end,
  ];
}

function legendRows(app: ReviewApp, width: number): Row[] {
  const rows: Row[] = [];
  let line: Segment[] = [];
  let used = 0;
  for (const item of legend(app)) {
    const [k, ...rest] = item.split(" ");
    const w = displayWidth(item) + 3;
    if (used > 0 && used + w > width) {
      rows.push(line);
      line = [];
      used = 0;
    }
    line.push({ text: " " + k, styles: ["bold"] }, { text: " " + rest.join(" ") + " " });
    used += w;
  }
  if (line.length) rows.push(line);
  return rows;
}

/** The row helpers the confirmation and the pinned-files rows are built with. */
export const KIT: RowKit = { field, text };

/** How many rows one page of the list and of the details pane holds for this terminal size. */
export function pageSizes(app: ReviewApp, opts: RenderOptions): PageSizes {
  const L = layout(app, opts);
  return { list: L.listHeight, details: app.confirm !== null ? L.bodyHeight : L.detailHeight };
}

/** Side by side from this width on: below it, a list as wide as the terminal shows more of each command. */
const SIDE_BY_SIDE_COLUMNS = 180;
/** The details pane's width side by side: a hash (`sha256:` + 64) and its label fit on one line. */
const SIDE_DETAILS_WIDTH = 85;

function layout(app: ReviewApp, opts: RenderOptions) {
  const { columns, rows } = opts;
  const legendCount = legendRows(app, columns).length;
  const bodyTop = 1 + notesRows(app, columns).length;
  const bodyHeight = Math.max(1, rows - bodyTop - messageLines(app, columns).length - legendCount);
  const side = columns >= SIDE_BY_SIDE_COLUMNS;
  const listWidth = side ? columns - SIDE_DETAILS_WIDTH - 3 : columns;
  // Stacked, the list takes half the body (less its footer rule): a long list shows enough to find one's way.
  // A short list takes only the rows it has: the details get the rest.
  const listHeight = side
    ? Math.max(1, bodyHeight - 1)
    : Math.max(1, Math.min(app.list.rows.length, Math.floor((bodyHeight - 1) / 2)));
  const detailHeight = side ? bodyHeight : bodyHeight - listHeight - 1;
  return { legendCount, bodyTop, bodyHeight, side, listWidth, listHeight, detailHeight };
}

/** Most rows the trust store's problem takes: its fix is never cut away. */
const STORE_LINES_MAX = 3;

/**
 * The rows under the title: the trust store's problem (wrapped: its fix must show), else the
 * project's trust — for an untrusted one what it holds and the one key that loads it —, then the
 * other notes.
 */
function notesRows(app: ReviewApp, columns: number): Row[] {
  const v = app.view;
  const rest = notes(app);
  if (v.trustStoreProblem === null) return [rest];
  // SPEC §6: no trust advice while the trust store cannot be read; only the fix of the file.
  const store = wrap(sanitize(v.trustStoreProblem), Math.max(10, columns - 1), "  ").slice(0, STORE_LINES_MAX)
    .map((l): Row => [{ text: ` ${l}`, styles: ["red", "bold"] }]);
  return rest.length > 0 ? [...store, rest] : store;
}

/** The notes after the trust store: the project, a missing home, hooks off, managed only, bypass. */
function notes(app: ReviewApp): Segment[] {
  const v = app.view;
  const out: Segment[] = [];
  // With the trust store unreadable, notesRows says its problem instead (no trust advice, SPEC §6).
  if (v.trustStoreProblem === null && v.project) {
    const p = v.project;
    // The one key that loads them first: the rest may be cut on a narrow terminal.
    const holds = p.waiting > 0
      ? ` · p trusts it · ${p.waiting} hook${p.waiting === 1 ? "" : "s"} not loaded: ${
        p.layers.map((l) => `${l.folder}/ ${l.hooks}`).join(", ")
      }`
      : " · p trusts it · its hooks are not loaded";
    out.push(
      p.trusted
        ? { text: ` project ${sanitize(p.shown)}: trusted`, styles: ["green"] }
        : { text: ` project ${sanitize(p.shown)}: NOT trusted${holds}`, styles: ["yellow", "bold"] },
    );
  } else if (v.trustStoreProblem === null) {
    out.push({ text: " no project (.mind/, .claude/ or .codex/) here", styles: ["dim"] });
  }
  if (v.homeMissing) out.push({ text: ` · the home ${sanitize(app.catalog.home)} does not exist`, styles: ["red"] });
  if (!v.hooksEnabled) out.push({ text: " · hooks are OFF ([features] hooks = false)", styles: ["red", "bold"] });
  if (v.managedOnly) out.push({ text: " · managed hooks only (policy)", styles: ["cyan"] });
  if (v.bypassTrust) out.push({ text: " · trust bypassed for this process", styles: ["red"] });
  return out;
}

/** The `… N more lines` row that ends a pane with more below. */
const moreBelow = (
  n: number,
  keys: string,
): Row => [{ text: `↓ ${n} more line${n === 1 ? "" : "s"}: ${keys}`, styles: ["dim"] }];

/** Paints the whole screen: one string per terminal row (SGR included, no cursor movement). */
export function renderFrame(app: ReviewApp, opts: RenderOptions): string[] {
  const { columns, color } = opts;
  const L = layout(app, opts);
  const out: string[] = [];

  const v = app.view;
  const title = ` mind-hooks review · ${v.hooks.length} hook${v.hooks.length === 1 ? "" : "s"}, ${v.needReview} need${
    v.needReview === 1 ? "s" : ""
  } review · ${v.warnings.length} warning${v.warnings.length === 1 ? "" : "s"} (w) · ? help`;
  out.push(paint([{ text: title, styles: ["bold"] }], columns, color, ["reverse"]));
  for (const row of notesRows(app, columns)) out.push(paint(row, columns, color));

  if (app.confirm !== null) {
    // The confirmation takes the whole body: nothing else competes with what is about to be trusted.
    const { rows } = confirmRows(app, columns - 2, KIT);
    app.confirm.top = Math.min(app.confirm.top, Math.max(0, rows.length - L.bodyHeight));
    const shown = rows.slice(app.confirm.top, app.confirm.top + L.bodyHeight);
    const below = rows.length - app.confirm.top - L.bodyHeight;
    if (below > 0 && shown.length) shown[shown.length - 1] = moreBelow(below + 1, "PgDn pages, End goes to the end");
    for (let r = 0; r < L.bodyHeight; r++) out.push(paint([{ text: " " }, ...(shown[r] ?? [])], columns, color));
    return withBottom(app, out, opts);
  }

  if (app.showHelp) {
    // The overlay takes the whole body: every key, with room to read it.
    const help = helpRows(columns - 2, app.canWriteTrust ? null : app.view.trustStoreProblem);
    for (let r = 0; r < L.bodyHeight; r++) out.push(paint([{ text: " " }, ...(help[r] ?? [])], columns, color));
    return withBottom(app, out, opts);
  }

  const list = listPane(app, L.listWidth, L.listHeight);
  const hints = app.canWriteTrust ? "/ search · n next to review" : "/ search";
  const footer = footerRow(list.footer, L.listWidth, L.listWidth >= 70 ? hints : "");
  const detailWidth = L.side ? columns - L.listWidth - 3 : columns - 2;
  const detailHeight = L.detailHeight;
  const current = app.current;
  const group = app.currentGroup;
  let details = app.showWarnings ? warningDetails(app, detailWidth) : current
    ? [
      ...(app.replayed?.key === current.key ? replayRows(app.replayed, detailWidth) : []),
      ...hookDetails(app, current, detailWidth),
    ]
    : group
    ? groupDetails(app, group, detailWidth)
    : emptyRows(app, detailWidth);
  if (!app.showWarnings && current && current.coverage === "server-approval-only") {
    details.push([], ...text(`Note: ${COVERAGE_NOTE}`, detailWidth, ["dim"]));
  }
  const maxTop = Math.max(0, details.length - detailHeight);
  app.detailTop = Math.min(app.detailTop, maxTop);
  const below = details.length - app.detailTop - detailHeight;
  details = details.slice(app.detailTop, app.detailTop + detailHeight);
  if (below > 0 && details.length) {
    details[details.length - 1] = moreBelow(below + 1, "PgDn pages, End goes to the end");
  }

  if (L.side) {
    const left = [...list.rows, ...Array(Math.max(0, L.listHeight - list.rows.length)).fill([]), footer];
    for (let r = 0; r < L.bodyHeight; r++) {
      out.push(
        paint(left[r] ?? [], L.listWidth, color) + paint([{ text: " │ ", styles: ["dim"] }], 3, color) +
          paint(details[r] ?? [], detailWidth, color),
      );
    }
  } else {
    for (let r = 0; r < L.listHeight; r++) out.push(paint(list.rows[r] ?? [], columns, color));
    out.push(paint(footer, columns, color));
    for (let r = 0; r < detailHeight; r++) out.push(paint([{ text: " " }, ...(details[r] ?? [])], columns, color));
  }
  return withBottom(app, out, opts);
}

/** Most lines a message takes: a long one (a path, an error) wraps rather than being cut. */
const MESSAGE_LINES_MAX = 3;

/** The message bar's lines: one (empty) without a message; the search being typed, with a cursor. */
function messageLines(app: ReviewApp, columns: number): string[] {
  if (app.search !== null) return [truncate(`/${sanitize(app.search.query)}▏`, Math.max(10, columns - 1))];
  if (app.message === null) return [""];
  return wrap(sanitize(app.message.text), Math.max(10, columns - 1)).slice(0, MESSAGE_LINES_MAX);
}

/** The frame's rows above, then the message bar and the key legend. */
function withBottom(app: ReviewApp, out: string[], opts: RenderOptions): string[] {
  const { columns, color } = opts;
  const m = app.message;
  const style: Style[] = app.search !== null ? ["bold"] : [m?.kind === "error" ? "red" : "green", "bold"];
  const bottom = [
    ...messageLines(app, columns).map((l) => paint(l === "" ? [] : [{ text: ` ${l}`, styles: style }], columns, color)),
    ...legendRows(app, columns).map((row) => paint(row, columns, color, ["reverse"])),
  ];
  // On a tiny terminal the body gives way first: the message and the key legend always show.
  return [...out.slice(0, Math.max(0, opts.rows - bottom.length)), ...bottom].slice(-opts.rows);
}
