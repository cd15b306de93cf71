/**
 * The confirmation `review` shows before it trusts (SPEC §14): exactly what will be trusted — each
 * command, its layer, file and line, event and matcher, the files it pins (§3.5) with their
 * hashes, a mark on commands that fetch from the network at run time — and that trusted commands
 * run with the user's permissions. `y` or Enter trusts exactly this, `n` or Esc cancels. When what
 * it showed changed on disk before the answer, the app re-shows it (marked) instead of trusting.
 *
 * Pure: rows from the app's state; the row helpers come from the renderer (src/review/render.ts).
 * @module
 */
import type { ReviewApp } from "./app.ts";
import type { Row, Style } from "./rows.ts";
import { unpinnableMark } from "./catalog_view.ts";

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

/** The rows of the confirmation pane; empty when none is open. */
export function confirmRows(app: ReviewApp, width: number, kit: RowKit): Row[] {
  const c = app.confirm;
  if (c === null) return [];
  const { items, refused } = c.plan;
  const rows: Row[] = [];
  const n = items.length;
  rows.push([{
    text: `Trust ${n} hook${n === 1 ? "" : "s"}? This is exactly what will be recorded:`,
    styles: ["bold"],
  }]);
  rows.push(...kit.text(RUNS_AS_YOU, width, ["yellow"]));
  if (c.changed) {
    rows.push(
      [],
      ...kit.text(
        "It changed on disk since it was shown: nothing was written. This is what it is now; y trusts this.",
        width,
        ["red", "bold"],
      ),
    );
  }
  items.forEach((item, i) => {
    const h = item.handler;
    const view = app.view.hooks.find((v) => v.key === h.key);
    const place = view?.file ? `${view.file}${view.line ? `:${view.line}` : ""}` : "(-c override of this process)";
    const what = h.handler.type === "command" ? h.handler.command : `mcp_tool ${h.handler.server}/${h.handler.tool}`;
    rows.push([]);
    rows.push(...kit.text(`${i + 1}. ${what}`, width, ["bold"], "   "));
    rows.push(...kit.field("  Layer", h.plugin ? `${h.layer} (plugin ${h.plugin})` : h.layer, width));
    rows.push(...kit.field("  File", place, width));
    rows.push(
      ...kit.field(
        "  Runs on",
        `${h.event}${h.matcher === null ? "" : ` matching ${JSON.stringify(h.matcher)}`}`,
        width,
      ),
    );
    rows.push(...kit.field("  Hash", h.hash, width, ["dim"]));
    if (item.files !== null) {
      const files = Object.entries(item.files);
      if (files.length === 0 && item.unpinnable === null) {
        rows.push(...kit.field("  Pins", "no file (its command runs none inside the root)", width));
      }
      files.forEach(([path, hash], j) =>
        rows.push(...kit.field(j === 0 ? "  Pins" : "", `${path}  ${shortHash(hash)}`, width))
      );
    }
    // Said before the user answers (SPEC §3.5 r3): trust covers only the files listed.
    if (item.unpinnable !== null) {
      rows.push(...kit.field("  Pins", unpinnableMark(item.unpinnable), width, ["red", "bold"]));
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
  });
  if (refused.length > 0) {
    rows.push([], ...kit.text("Cannot be trusted (nothing is written for these):", width, ["red", "bold"]));
    for (const r of refused) rows.push(...kit.text(`${r.key}: ${r.reason}`, width, ["red"], "    "));
  }
  rows.push(
    [],
    ...kit.text("y or Enter trusts exactly this · n or Esc cancels (nothing is written)", width, ["bold"]),
  );
  return rows;
}
