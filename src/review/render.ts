/**
 * The review screen as text: a pure function from the app state and the
 * terminal size to the rows to paint. Layout: a title bar, the project line,
 * the hook list beside the details pane (stacked on terminals narrower than
 * 120 columns), the message bar, and the key legend, which is always shown.
 *
 * Every piece of text that comes from a config file goes through `sanitize`
 * before it is measured and painted, so a hook cannot smuggle escape
 * sequences onto the screen. Colour is SGR only and is left out entirely
 * under `NO_COLOR`; the selected row also carries a `>` marker so the
 * selection never depends on colour.
 * @module
 */
import { formatWarning } from "../config/warnings.ts";
import { definitionText } from "../trust/trusted_store.ts";
import type { ReviewApp } from "./app.ts";
import type { HookView } from "./catalog_view.ts";
import { COVERAGE_NOTE, COVERAGE_TEXT } from "./coverage.ts";
import { lineDiff } from "../util/line_diff.ts";
import { displayWidth, fit, truncate, wrap } from "./text.ts";
import { sanitize } from "../util/terminal_text.ts";

/** SGR styles used on screen. */
export type Style = "bold" | "dim" | "reverse" | "red" | "green" | "yellow" | "cyan" | "magenta";

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

/** A run of text with styles. */
type Segment = { text: string; styles?: Style[] };
/** One screen row. */
type Row = Segment[];

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

/** The legend items, shown on every frame. */
function legend(app: ReviewApp): string[] {
  const p = app.catalog.project;
  return [
    "↑/↓ j/k move",
    "PgUp/PgDn page",
    "t trust",
    "u untrust",
    "e enable",
    "d disable",
    "A trust all needing review",
    p ? (p.trusted ? "p untrust project" : "p trust project") : "p project",
    "w warnings",
    "[ ] scroll",
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

/** The list pane's rows: a header per layer file, then one row per hook. */
function listRows(app: ReviewApp, width: number): { rows: Row[]; selectedRow: number } {
  const rows: Row[] = [];
  let selectedRow = 0;
  let index = 0;
  // Columns as wide as their longest entry (within bounds), so what runs gets the rest of the row.
  const hooks = app.view.hooks;
  const badgeWidth = Math.max(0, ...hooks.map((h) => h.status.length + 2)) + 1;
  const eventWidth = Math.max(0, ...hooks.map((h) => h.event.length)) + 1;
  const matcherWidth = Math.min(
    Math.max(6, Math.floor(width / 5)),
    Math.max(1, ...hooks.map((h) => displayWidth(sanitize(h.matcher ?? "*")))),
  ) + 1;
  for (const g of app.view.groups) {
    rows.push([{ text: `── ${g.layer}  ${sanitize(g.file ?? g.source)}`, styles: ["dim"] }]);
    for (const h of g.hooks) {
      const selected = index === app.selected;
      if (selected) selectedRow = rows.length;
      const badge = `[${h.status}]`;
      const matcher = h.matcher === null ? "*" : sanitize(h.matcher);
      const fill: Style[] = selected ? ["reverse"] : [];
      rows.push([
        { text: selected ? "> " : "  ", styles: fill },
        { text: fit(badge, badgeWidth), styles: [...fill, STATUS_STYLE[h.status], "bold"] },
        { text: fit(h.enabled ? "on" : "off", 4), styles: h.enabled ? fill : [...fill, "dim"] },
        { text: fit(h.event, eventWidth), styles: fill },
        { text: fit(matcher, matcherWidth), styles: fill },
        { text: sanitize(h.summary), styles: h.enabled ? fill : [...fill, "dim"] },
        // The name is the hook's own claim about itself: after what runs, never in its place.
        ...(h.name === null ? [] : [{ text: `  · ${sanitize(h.name)}`, styles: [...fill, "dim"] as Style[] }]),
      ]);
      index++;
    }
  }
  return { rows, selectedRow };
}

/** A labelled field of the details pane, wrapped under its label. */
function field(label: string, value: string, width: number, styles: Style[] = []): Row[] {
  const labelWidth = 10;
  const lines = wrap(sanitize(value), Math.max(10, width - labelWidth));
  return lines.map((l, i) => [
    { text: fit(i === 0 ? label : "", labelWidth), styles: ["bold"] },
    { text: l, styles },
  ]);
}

function text(value: string, width: number, styles: Style[] = [], indent = ""): Row[] {
  return wrap(sanitize(value), width, indent).map((l) => [{ text: l, styles }]);
}

const STATUS_TEXT: Record<string, string> = {
  managed: "from the managed requirements.toml: always trusted and enabled; read-only here",
  trusted: "the stored trusted hash equals the current hash",
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
  if (h.name !== null) rows.push(...field("Name", `${h.name}  (the hook's own label; what runs is below)`, width));
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
  if (h.status === "modified") {
    rows.push([]);
    const copy = app.trustedCopies.get(h.key);
    if (!copy) {
      rows.push(
        ...text(
          "No copy of the trusted definition is kept (it was trusted elsewhere, or the copy under hooks/trusted/ was removed): only the hashes show that it changed.",
          width,
          ["yellow"],
        ),
      );
    } else {
      if (copy.hash !== h.trustedHash) {
        rows.push(
          ...text(`The kept copy is of ${copy.hash}, not of the stored trusted hash.`, width, ["yellow"]),
        );
      }
      rows.push(...text(`Changed since trusted (${copy.trustedAt}):  - trusted   + now`, width, ["bold"]));
      const before = definitionText(copy);
      const after = definitionText({ event: h.event, matcher: h.matcher, handler: d as Record<string, unknown> });
      for (const line of lineDiff(before, after)) {
        const styles: Style[] = line.op === "-" ? ["red"] : line.op === "+" ? ["green"] : ["dim"];
        rows.push(...text(`${line.op} ${line.text}`, width, styles, "    "));
      }
    }
  }
  return rows;
}

function warningDetails(app: ReviewApp, width: number): Row[] {
  const rows: Row[] = [[{ text: `Warnings (${app.view.warnings.length})`, styles: ["bold"] }]];
  if (app.view.warnings.length === 0) rows.push(...text("No discovery warnings.", width));
  for (const w of app.view.warnings) rows.push(...text(formatWarning(w), width, [], "    "));
  rows.push([], ...text("w returns to the selected hook.", width, ["dim"]));
  return rows;
}

function emptyDetails(app: ReviewApp, width: number): Row[] {
  const rows = text("No hooks are configured.", width, ["bold"]);
  const p = app.view.project;
  if (p && !p.trusted) {
    rows.push(
      [],
      ...text(`The project ${p.root} is not trusted, so its .mind/ hooks are not loaded: press p to trust it.`, width),
    );
  }
  return rows;
}

/** How many list rows one page holds for this terminal size. */
export function pageSize(app: ReviewApp, opts: RenderOptions): number {
  return layout(app, opts).listHeight;
}

function layout(app: ReviewApp, opts: RenderOptions) {
  const { columns, rows } = opts;
  const legendCount = legendRows(app, columns).length;
  const bodyTop = 2;
  const bodyHeight = Math.max(1, rows - bodyTop - 1 - legendCount);
  const side = columns >= 120;
  const listWidth = side ? Math.max(50, Math.min(columns - 44, Math.floor(columns * 0.45))) : columns;
  const listHeight = side ? bodyHeight : Math.max(1, Math.floor((bodyHeight - 1) * 0.4));
  return { legendCount, bodyTop, bodyHeight, side, listWidth, listHeight };
}

/** Paints the whole screen: one string per terminal row (SGR included, no cursor movement). */
export function renderFrame(app: ReviewApp, opts: RenderOptions): string[] {
  const { columns, color } = opts;
  const L = layout(app, opts);
  const out: string[] = [];

  const v = app.view;
  const title = ` mind-hooks review · ${v.hooks.length} hook${v.hooks.length === 1 ? "" : "s"}, ${v.needReview} need${
    v.needReview === 1 ? "s" : ""
  } review · ${v.warnings.length} warning${v.warnings.length === 1 ? "" : "s"} (w)`;
  out.push(paint([{ text: title, styles: ["bold"] }], columns, color, ["reverse"]));

  const notes: Segment[] = [];
  if (v.project) {
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
  app.listTop = Math.max(0, Math.min(app.listTop, Math.max(0, list.rows.length - L.listHeight)));
  if (list.rows.length === 0) list.rows.push([{ text: " (no hooks)", styles: ["dim"] }]);

  const detailWidth = L.side ? columns - L.listWidth - 3 : columns - 2;
  const detailHeight = L.side ? L.bodyHeight : L.bodyHeight - L.listHeight - 1;
  const current = app.current;
  let details = app.showWarnings
    ? warningDetails(app, detailWidth)
    : current
    ? hookDetails(app, current, detailWidth)
    : emptyDetails(app, detailWidth);
  if (!app.showWarnings && current && current.coverage === "server-approval-only") {
    details.push([], ...text(`Note: ${COVERAGE_NOTE}`, detailWidth, ["dim"]));
  }
  const maxTop = Math.max(0, details.length - detailHeight);
  app.detailTop = Math.min(app.detailTop, maxTop);
  const more = details.length - app.detailTop > detailHeight;
  details = details.slice(app.detailTop, app.detailTop + detailHeight);
  if (more && details.length) details[details.length - 1] = [{ text: "… more below: ] scrolls", styles: ["dim"] }];

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

  const m = app.message;
  const bottom = [
    paint(
      m ? [{ text: ` ${sanitize(m.text)}`, styles: [m.kind === "error" ? "red" : "green", "bold"] }] : [],
      columns,
      color,
    ),
    ...legendRows(app, columns).map((row) => paint(row, columns, color, ["reverse"])),
  ];
  // On a tiny terminal the body gives way first: the message and the key legend always show.
  return [...out.slice(0, Math.max(0, opts.rows - bottom.length)), ...bottom].slice(-opts.rows);
}
