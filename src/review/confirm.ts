/**
 * The confirmation `review` shows before it trusts (SPEC §14): first a summary that fits one screen
 * (src/review/trust_summary.ts: how many hooks, their events and files, how many pinned files, and
 * every hook that fetches from the network or cannot be pinned, by its full command) and that
 * trusted commands run with the user's permissions; then each hook's details — its command, layer,
 * file and line, event and matcher, hash, the files it pins (a set shared with an earlier hook is
 * named once), a network mark. `y` or Enter trusts exactly this, `n` or Esc cancels; ↓, PgDn and End
 * go through the details. When what it showed changed on disk before the answer, the app re-shows it
 * (marked) instead of trusting.
 *
 * Pure: rows from the app's state; the row helpers come from the renderer (src/review/render.ts).
 * @module
 */
import { DIALECTS } from "../dialect/registry.ts";
import type { Dialect } from "../events/types.ts";
import type { EventName } from "../events/names.ts";
import type { ReviewApp } from "./app.ts";
import type { Row, Style } from "./rows.ts";
import { summaryLines, trustSummary } from "./trust_summary.ts";
import { unpinnableMark } from "./catalog_view.ts";
import { hookHash } from "../trust/hash.ts";
import { handlerModule, handlerSummary } from "../config/handler_types/registry.ts";
import { contentRows } from "./pin_contents.ts";

/** The renderer's row helpers. */
export type RowKit = {
  field(label: string, value: string, width: number, styles?: Style[]): Row[];
  text(value: string, width: number, styles?: Style[], indent?: string): Row[];
};

/** `sha256:` and the first 12 hex digits: enough to compare by eye. */
export function shortHash(hash: string): string {
  return hash.startsWith("sha256:") ? `sha256:${hash.slice(7, 19)}…` : hash;
}

/** The caveat every confirmation carries (the Codex trust prompt says the same). */
export const RUNS_AS_YOU =
  "Trusted commands run with your permissions, outside any sandbox: whatever they and the files they run do, you do.";

/** How many rows of the confirmation are its summary (the rest are the details), for the renderer. */
export function confirmRows(app: ReviewApp, width: number, kit: RowKit): { rows: Row[]; summary: number } {
  const c = app.confirm;
  if (c === null) return { rows: [], summary: 0 };
  const { items } = c.plan;
  const rows: Row[] = [];
  const n = items.length;
  rows.push([{
    text: `Trust ${n} hook${n === 1 ? "" : "s"}? This is exactly what will be recorded:`,
    styles: ["bold"],
  }]);
  rows.push(...kit.text(RUNS_AS_YOU, width, ["yellow"]));
  if (c.changed) {
    rows.push(
      ...kit.text(
        "It changed on disk since it was shown: nothing was written. This is what it is now; y trusts this.",
        width,
        ["red", "bold"],
      ),
    );
  }
  for (const line of summaryLines(trustSummary(c.plan, app.view))) {
    const styles: Style[] = line.kind === "warn" ? ["red", "bold"] : line.kind === "item" ? ["bold"] : [];
    rows.push(...kit.text(line.kind === "item" ? `    ${line.text}` : `  ${line.text}`, width, styles, "      "));
  }
  rows.push(
    ...kit.text(
      `y or Enter trusts ${
        n === 1 ? "it" : `all ${n}`
      } · n or Esc cancels (nothing is written) · ↓ PgDn: each hook's details · End: the last`,
      width,
      ["bold"],
    ),
  );
  const summary = rows.length;
  rows.push([]);
  // Pin sets shared with an earlier hook are named once: "the same N files as 1.".
  const seen = new Map<string, number>();
  const views = new Map(app.view.hooks.map((v) => [v.key, v]));
  items.forEach((item, i) => {
    const h = item.handler;
    const view = views.get(h.key);
    const what = handlerSummary(h.handler);
    rows.push(...kit.text(`${i + 1}/${n}. ${what}`, width, ["bold"], "   "));
    rows.push(...kit.field("  Layer", h.plugin ? `${h.layer} (plugin ${h.plugin})` : h.layer, width));
    rows.push(...kit.field("  File", view?.place ?? h.sourcePath, width));
    // A Gemini CLI or Copilot CLI hook: whose it is, under its host's own event name (SPEC §2.8 r4).
    const written = writtenFor(h);
    if (written !== null) rows.push(...kit.field("  Written for", written, width));
    rows.push(
      ...kit.field(
        "  Runs on",
        `${h.event}${h.matcher === null ? "" : ` matching ${JSON.stringify(h.matcher)}`}`,
        width,
      ),
    );
    rows.push(...kit.field("  Hash", hookHash(h), width, ["dim"]));
    if (item.files !== null) {
      const files = Object.entries(item.files);
      const id = JSON.stringify([h.pins?.scope.root ?? "", files]);
      const first = seen.get(id);
      if (files.length === 0 && item.unpinnable === null) {
        rows.push(...kit.field("  Pins", "no file (its command runs none inside the root)", width));
      } else if (first !== undefined) {
        rows.push(...kit.field("  Pins", `the same ${files.length} files as ${first}/${n}`, width));
      } else {
        seen.set(id, i + 1);
        files.forEach(([path, hash], j) =>
          rows.push(...kit.field(j === 0 ? "  Pins" : "", `${path}  ${shortHash(hash)}`, width))
        );
        // What the trust covers, not only its names: each file's content, once per set (SPEC §14).
        const root = h.pins?.scope.root;
        if (root !== undefined) rows.push(...contentRows(app.pinnedTexts, root, files, width, kit));
      }
    }
    // Said before the user answers (SPEC §3.5 r3): trust covers only the files listed.
    if (item.unpinnable !== null) {
      rows.push(...kit.field("  Pins", unpinnableMark(item.unpinnable), width, ["red", "bold"]));
    }
    for (const w of handlerModule(h.handler).reviewWarnings(h.handler)) {
      rows.push(...kit.field("  Network", `⚠ ${w}`, width, ["red", "bold"]));
    }
    const fetch = item.fetch ?? view?.fetch ?? null;
    if (fetch !== null) {
      rows.push(
        ...kit.field("  Network", `fetches at run time (${fetch}): what it fetches is not pinned`, width, [
          "red",
          "bold",
        ]),
      );
    }
    rows.push([]);
  });
  rows.push(
    ...kit.text("y or Enter trusts exactly this · n or Esc cancels (nothing is written)", width, ["bold"]),
  );
  return { rows, summary };
}

/** `Gemini CLI (BeforeTool)` for a host's own hook read in its dialect, else null. */
export function writtenFor(h: { dialect: Dialect; event: EventName }): string | null {
  const d = DIALECTS[h.dialect];
  if (d.events === null || d.hostName === null) return null;
  const name = Object.entries(d.events).find(([, e]) => e === h.event)?.[0];
  return name === undefined ? d.hostName : `${d.hostName} (${name})`;
}
