/**
 * The review screen as text: a pure function from the app state and the
 * terminal size to the rows to paint. Layout: a title bar, the project line,
 * the hook list above the details pane (side by side from 180 columns: below
 * that a full-width list shows more of each command), the message bar, and the
 * key legend, which is always shown; `?` replaces the body with every key.
 *
 * Every piece of text that comes from a config file goes through `sanitize`
 * before it is measured and painted, so a hook cannot smuggle escape
 * sequences onto the screen. Colour is SGR only and is left out entirely
 * under `NO_COLOR`; the selected row also carries a `>` marker so the
 * selection never depends on colour.
 * @module
 */
import { formatWarning } from "../config/warnings.ts";
import type { ReviewApp } from "./app.ts";
import type { HookView } from "./catalog_view.ts";
import { COVERAGE_NOTE, COVERAGE_TEXT } from "./coverage.ts";
import { confirmRows, type RowKit } from "./confirm.ts";
import { changeRows, pinnedRows } from "./pins_view.ts";
import { displayWidth, fit, truncate, wrap } from "./text.ts";
import { sanitize } from "../util/terminal_text.ts";
import { field, type Row, type Segment, type Style, text } from "./rows.ts";
import { droppedRow, emptyRows, helpRows, hookExtraRows } from "./panes.ts";
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

const STATUS_STYLE: Record<string, Style> = {
  untrusted: "yellow",
  modified: "red",
  trusted: "green",
  managed: "cyan",
};

function paint(row: Row, width: number, color: boolean, fill: Style[] = []): string {
  let out = "";
  let used = 0;
  for (const seg of row) {
    if (used >= width) break;
    // Sanitised again here (idempotent), so no text reaches the screen unescaped even if a caller forgot.
    const text = truncate(sanitize(seg.text), width - used);
    used += displayWidth(text);
    const styles = [...fill, ...(seg.styles ?? [])].filter((s) => color || !COLOURS.has(s));
    out += styles.length ? `\x1b[${styles.map((s) => SGR[s]).join(";")}m${text}\x1b[0m` : text;
  }
  if (used < width) {
    const pad = " ".repeat(width - used);
    const styles = fill.filter((s) => color || !COLOURS.has(s));
    out += styles.length ? `\x1b[${styles.map((s) => SGR[s]).join(";")}m${pad}\x1b[0m` : pad;
  }
  return out;
}

/** The legend items, shown on every frame (`?` shows every key, src/review/panes.ts). */
function legend(app: ReviewApp): string[] {
  if (app.confirm !== null) return ["y/Enter trust exactly this", "n/Esc cancel", "↑/↓ scroll"];
  const p = app.catalog.project;
  return [
    "↑/↓ move",
    "t trust",
    "u untrust",
    "e enable",
    "d disable",
    "A trust all needing review",
    p ? (p.trusted ? "p untrust project" : "p trust project") : "p project",
    "w warnings",
    "PgUp/PgDn details",
    "r reload",
    "? help",
    "q quit",
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

/** `text` cut to `width - 1` cells and padded to `width`: a column that never runs into the next. */
function cell(text: string, width: number): string {
  return fit(text, width - 1) + " ";
}

/**
 * The list pane's rows: a header per layer file, one row per hook (a `!` before its status when a
 * warning is about it), then a row for each thing the file's warnings dropped.
 */
function listRows(app: ReviewApp, width: number): { rows: Row[]; selectedRow: number } {
  const rows: Row[] = [];
  let selectedRow = 0;
  let index = 0;
  // Columns as wide as their longest entry (the matcher within bounds), so what runs gets the rest.
  const hooks = app.view.hooks;
  const badgeWidth = Math.max(0, ...hooks.map((h) => h.status.length + 2)) + 1;
  const eventWidth = Math.max(0, ...hooks.map((h) => h.event.length)) + 1;
  const matcherWidth = Math.min(
    Math.max(8, Math.floor(width / 6)),
    Math.max(1, ...hooks.map((h) => displayWidth(sanitize(h.matcher ?? "*")))) + 1,
  );
  const dropped = (source: string) => app.view.dropped.filter((w) => w.source === source);
  const listed = new Set<string>();
  for (const g of app.view.groups) {
    rows.push([{ text: `── ${g.layer}  ${sanitize(g.file ?? g.source)}`, styles: ["dim"] }]);
    for (const h of g.hooks) {
      const selected = index === app.selected;
      if (selected) selectedRow = rows.length;
      const badge = `[${h.status}]`;
      const matcher = h.matcher === null ? "*" : sanitize(h.matcher);
      const fill: Style[] = selected ? ["reverse"] : [];
      rows.push([
        // `!`: a warning is about this hook (its details say which).
        {
          text: `${selected ? ">" : " "}${h.warnings.length ? "!" : " "}`,
          styles: h.warnings.length ? [...fill, "yellow", "bold"] : fill,
        },
        { text: cell(badge, badgeWidth), styles: [...fill, STATUS_STYLE[h.status], "bold"] },
        { text: cell(h.enabled ? "on" : "off", 4), styles: h.enabled ? fill : [...fill, "dim"] },
        { text: cell(h.event, eventWidth), styles: fill },
        { text: cell(matcher, matcherWidth), styles: fill },
        { text: sanitize(h.summary), styles: h.enabled ? fill : [...fill, "dim"] },
        // The name is the hook's own claim about itself: after what runs, never in its place.
        ...(h.name === null ? [] : [{ text: `  · ${sanitize(h.name)}`, styles: [...fill, "dim"] as Style[] }]),
      ]);
      index++;
    }
    if (!listed.has(g.source)) rows.push(...dropped(g.source).map(droppedRow));
    listed.add(g.source);
  }
  // Files whose every hook was dropped (or that did not load) have no group of their own.
  for (const source of new Set(app.view.dropped.map((w) => w.source))) {
    if (listed.has(source)) continue;
    rows.push([{ text: `── ${sanitize(source)}`, styles: ["dim"] }], ...dropped(source).map(droppedRow));
  }
  return { rows, selectedRow };
}

const STATUS_TEXT: Record<string, string> = {
  managed: "from the managed requirements.toml: always trusted and enabled; read-only here",
  trusted: "the stored trusted hash equals the current hash, and its pinned files are unchanged",
  modified: "changed since it was trusted: it does not run until you trust it again (t)",
  untrusted: "never trusted: it does not run until you trust it (t)",
};

/** The details pane for one hook. */
function hookDetails(app: ReviewApp, h: HookView, width: number): Row[] {
  const d = h.handler.handler;
  const rows: Row[] = [];
  rows.push(...field("Key", h.key, width));
  rows.push(
    ...field(
      "File",
      h.file === null ? "(-c override of this process)" : `${h.file}${h.line ? `:${h.line}` : ""}`,
      width,
    ),
  );
  rows.push(...field("Layer", h.plugin ? `${h.layer} (plugin ${h.plugin})` : h.layer, width));
  rows.push(...field("Event", h.event, width));
  rows.push(...field("Matcher", h.matcher === null ? "(none: matches everything)" : JSON.stringify(h.matcher), width));
  if (h.name !== null) rows.push(...field("Name", `${h.name}  (its own label; what runs is the command)`, width));
  rows.push(...field("Type", d.type, width));
  if (d.type === "command") {
    rows.push(...field("Command", d.command, width, ["bold"]));
    if (d.commandWindows !== undefined) rows.push(...field("Windows", d.commandWindows, width));
    rows.push(...field("Timeout", `${d.timeout} s`, width));
    rows.push(...field("Async", d.async ? "yes (runs in the background, no control effect)" : "no", width));
    rows.push(...field("Ctx limit", `${d.additionalContextLimit} tokens (additionalContextLimit)`, width));
  } else {
    rows.push(...field("Server", d.server, width, ["bold"]));
    rows.push(...field("Tool", d.tool, width, ["bold"]));
    rows.push(...field("Input", JSON.stringify(d.input), width));
    rows.push(...field("Timeout", `${d.timeout} s`, width));
  }
  if (d.statusMessage !== undefined) rows.push(...field("Message", d.statusMessage, width));
  rows.push([]);
  rows.push(...field("Status", `${h.status} — ${STATUS_TEXT[h.status]}`, width, [STATUS_STYLE[h.status], "bold"]));
  rows.push(
    ...field(
      "Enabled",
      h.layer === "managed" ? "yes (managed)" : h.enabled ? "yes" : "no — disabled: it does not run (e enables it)",
      width,
      h.enabled ? [] : ["yellow"],
    ),
  );
  rows.push(...field("Coverage", `${h.coverage} — ${COVERAGE_TEXT[h.coverage]}`, width));
  rows.push(...field("Hash", h.hash, width));
  rows.push(...field("Trusted", h.layer === "managed" ? "(managed: no state)" : h.trustedHash ?? "(none)", width));
  rows.push(...pinnedRows(h, width, KIT));
  rows.push(...hookExtraRows(app, h, width));
  // A modified hook's details open at the change (SPEC §14): what changed first, then the rest.
  const change = changeRows(app, h, width, KIT);
  return change.length > 0 ? [...change, [], ...rows] : rows;
}

/** The row helpers the confirmation and the pinned-files rows are built with. */
const KIT: RowKit = { field, text };

function warningDetails(app: ReviewApp, width: number): Row[] {
  const rows: Row[] = [[{ text: `Warnings (${app.view.warnings.length})`, styles: ["bold"] }]];
  if (app.view.warnings.length === 0) rows.push(...text("No discovery warnings.", width));
  for (const w of app.view.warnings) rows.push(...text(formatWarning(w), width, [], "    "));
  rows.push([], ...text("w or Esc returns to the selected hook.", width, ["dim"]));
  return rows;
}

/** How many rows one page of the list and of the details pane holds for this terminal size. */
export function pageSizes(app: ReviewApp, opts: RenderOptions): PageSizes {
  const L = layout(app, opts);
  return { list: L.listHeight, details: L.detailHeight };
}

/** Side by side from this width on: below it, a list as wide as the terminal shows more of each command. */
const SIDE_BY_SIDE_COLUMNS = 180;
/** The details pane's width side by side: a hash (`sha256:` + 64) and its label fit on one line. */
const SIDE_DETAILS_WIDTH = 85;

function layout(app: ReviewApp, opts: RenderOptions) {
  const { columns, rows } = opts;
  const legendCount = legendRows(app, columns).length;
  const bodyTop = 2;
  const bodyHeight = Math.max(1, rows - bodyTop - messageLines(app, columns).length - legendCount);
  const side = columns >= SIDE_BY_SIDE_COLUMNS;
  const listWidth = side ? columns - SIDE_DETAILS_WIDTH - 3 : columns;
  const listHeight = side ? bodyHeight : Math.max(1, Math.floor((bodyHeight - 1) * 0.4));
  const detailHeight = side ? bodyHeight : bodyHeight - listHeight - 1;
  return { legendCount, bodyTop, bodyHeight, side, listWidth, listHeight, detailHeight };
}

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

  const notes: Segment[] = [];
  if (v.trustStore !== null) {
    // SPEC §6: no trust advice while the trust store cannot be read; only the fix of the file.
    notes.push({ text: ` ${sanitize(v.trustStore)}`, styles: ["red", "bold"] });
  } else if (v.project) {
    notes.push(
      v.project.trusted ? { text: ` project ${sanitize(v.project.root)}: trusted`, styles: ["green"] } : {
        text: ` project ${sanitize(v.project.root)}: NOT trusted — its .mind/ hooks are not loaded (p trusts it)`,
        styles: ["yellow", "bold"],
      },
    );
  } else notes.push({ text: " no project (.mind/) here", styles: ["dim"] });
  if (!v.hooksEnabled) notes.push({ text: " · hooks are OFF ([features] hooks = false)", styles: ["red", "bold"] });
  if (v.managedOnly) notes.push({ text: " · managed hooks only (policy)", styles: ["cyan"] });
  if (v.bypassTrust) notes.push({ text: " · trust bypassed for this process", styles: ["red"] });
  out.push(paint(notes, columns, color));

  // Body: list and details.
  const list = listRows(app, L.listWidth);
  if (list.selectedRow < app.listTop) {
    // Keep the file header above the first hook of a group in view when scrolling up to it.
    const above = list.selectedRow - 1;
    app.listTop = above >= 0 && list.rows[above].length === 1 ? above : list.selectedRow;
  }
  if (list.selectedRow >= app.listTop + L.listHeight) app.listTop = list.selectedRow - L.listHeight + 1;
  // At the last hook, what follows it (the files' dropped entries) comes into view too.
  if (app.selected === v.hooks.length - 1) app.listTop = Math.max(app.listTop, list.rows.length - L.listHeight);
  app.listTop = Math.max(0, Math.min(app.listTop, Math.max(0, list.rows.length - L.listHeight)));
  if (list.rows.length === 0) list.rows.push([{ text: " (no hooks)", styles: ["dim"] }]);

  if (app.confirm !== null) {
    // The confirmation takes the whole body: nothing else competes with what is about to be trusted.
    const rows = confirmRows(app, columns - 2, KIT);
    app.confirm.top = Math.min(app.confirm.top, Math.max(0, rows.length - L.bodyHeight));
    const shown = rows.slice(app.confirm.top, app.confirm.top + L.bodyHeight);
    if (rows.length - app.confirm.top > L.bodyHeight && shown.length) {
      shown[shown.length - 1] = [{ text: "… more below: ↓ scrolls", styles: ["dim"] }];
    }
    for (let r = 0; r < L.bodyHeight; r++) out.push(paint([{ text: " " }, ...(shown[r] ?? [])], columns, color));
    return withBottom(app, out, opts);
  }

  if (app.showHelp) {
    // The overlay takes the whole body: every key, with room to read it.
    const help = helpRows(columns - 2);
    for (let r = 0; r < L.bodyHeight; r++) out.push(paint([{ text: " " }, ...(help[r] ?? [])], columns, color));
    return withBottom(app, out, opts);
  }
  const detailWidth = L.side ? columns - L.listWidth - 3 : columns - 2;
  const detailHeight = L.detailHeight;
  const current = app.current;
  let details = app.showWarnings
    ? warningDetails(app, detailWidth)
    : current
    ? hookDetails(app, current, detailWidth)
    : emptyRows(app, detailWidth);
  if (!app.showWarnings && current && current.coverage === "server-approval-only") {
    details.push([], ...text(`Note: ${COVERAGE_NOTE}`, detailWidth, ["dim"]));
  }
  const maxTop = Math.max(0, details.length - detailHeight);
  app.detailTop = Math.min(app.detailTop, maxTop);
  const more = details.length - app.detailTop > detailHeight;
  details = details.slice(app.detailTop, app.detailTop + detailHeight);
  if (more && details.length) {
    details[details.length - 1] = [{ text: "… more below: PgDn pages, End goes to the end", styles: ["dim"] }];
  }

  if (L.side) {
    for (let r = 0; r < L.bodyHeight; r++) {
      const left = list.rows[app.listTop + r] ?? [];
      const right = details[r] ?? [];
      out.push(
        paint(left, L.listWidth, color) + paint([{ text: " │ ", styles: ["dim"] }], 3, color) +
          paint(right, detailWidth, color),
      );
    }
  } else {
    for (let r = 0; r < L.listHeight; r++) out.push(paint(list.rows[app.listTop + r] ?? [], columns, color));
    out.push(paint([{ text: "─".repeat(columns), styles: ["dim"] }], columns, color));
    for (let r = 0; r < detailHeight; r++) {
      out.push(paint([{ text: " " }, ...(details[r] ?? [])], columns, color));
    }
  }

  return withBottom(app, out, opts);
}

/** Most lines a message takes: a long one (a path, an error) wraps rather than being cut. */
const MESSAGE_LINES_MAX = 3;

/** The message bar's lines: one (empty) without a message. */
function messageLines(app: ReviewApp, columns: number): string[] {
  if (app.message === null) return [""];
  return wrap(sanitize(app.message.text), Math.max(10, columns - 1)).slice(0, MESSAGE_LINES_MAX);
}

/** The frame's rows above, then the message bar and the key legend. */
function withBottom(app: ReviewApp, out: string[], opts: RenderOptions): string[] {
  const { columns, color } = opts;
  const m = app.message;
  const style: Style[] = [m?.kind === "error" ? "red" : "green", "bold"];
  const bottom = [
    ...messageLines(app, columns).map((l) => paint(l === "" ? [] : [{ text: ` ${l}`, styles: style }], columns, color)),
    ...legendRows(app, columns).map((row) => paint(row, columns, color, ["reverse"])),
  ];
  // On a tiny terminal the body gives way first: the message and the key legend always show.
  return [...out.slice(0, Math.max(0, opts.rows - bottom.length)), ...bottom].slice(-opts.rows);
}
