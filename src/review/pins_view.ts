/**
 * The pinned files in `review`'s details pane (SPEC §3.5, §14): the files a hook pins and their
 * state, and — first, for a `modified` hook — what changed since it was trusted: the definition's
 * diff and each changed file's diff against the trusted copy (or why no diff can be shown: no copy
 * was kept, the file is binary or too large), a removed file, an added file's content.
 *
 * Pure: rows from the app's state (the trusted copies and the current texts are loaded by the app).
 * @module
 */
import type { ReviewApp } from "./app.ts";
import { closureText, type HookView, unpinnableMark } from "./catalog_view.ts";
import type { Row, Style } from "./rows.ts";
import type { RowKit } from "./confirm.ts";
import { shortHash } from "./confirm.ts";
import { definitionText } from "../trust/trusted_store.ts";
import { type DiffLine, diffLines } from "../util/line_diff.ts";
import { timeAndAge } from "./display.ts";

/** At most this many lines of one file's diff (or added content) are shown. */
const MAX_DIFF_LINES = 400;

const STATE_STYLE: Record<string, Style[]> = {
  pinned: [],
  unpinned: ["dim"],
  changed: ["red", "bold"],
  removed: ["red", "bold"],
  added: ["red", "bold"],
};

/** The "Pinned" field: every pinned file with its state and short hash, or why it cannot pin. */
export function pinnedRows(h: HookView, width: number, kit: RowKit): Row[] {
  const p = h.pinned;
  const rows: Row[] = [];
  if (p === null) {
    if (h.layer !== "managed") rows.push(...kit.field("Pinned", "(none: its layer's files are the user's own)", width));
  } else if (p.error !== null) {
    rows.push(...kit.field("Pinned", `cannot pin its files, so it cannot be trusted: ${p.error}`, width, ["red"]));
  } else if (p.files.length > 0 && p.files.every((f) => f.state === "unpinned") && h.samePins && !h.samePins.first) {
    // A set shared with other hooks: counted, not repeated (its files are in the first one's details).
    const n = p.files.length;
    rows.push(
      ...kit.field(
        "Pinned",
        `${n} file${n === 1 ? "" : "s"}, the same as ${h.samePins.others} other hook${
          h.samePins.others === 1 ? "" : "s"
        } (pinned on trust)`,
        width,
        ["dim"],
      ),
    );
  } else if (p.files.length === 0) {
    // An unpinnable command may run files after all: its mark below says so instead.
    if (!p.unpinnable) rows.push(...kit.field("Pinned", "no file (its command runs none inside the root)", width));
  } else {
    const label = p.unrecorded ? "not pinned yet (trusted before pinning)" : null;
    if (label) rows.push(...kit.field("Pinned", label, width, ["yellow"]));
    p.files.forEach((f, i) => {
      const state = f.state === "pinned" ? "" : f.state === "unpinned" ? "  (pinned on trust)" : `  (${f.state})`;
      const hash = f.hash === null ? "" : `  ${shortHash(f.hash)}`;
      rows.push(
        ...kit.field(i === 0 && !label ? "Pinned" : "", `${f.path}${hash}${state}`, width, STATE_STYLE[f.state]),
      );
    });
  }
  const closure = p !== null && p.error === null ? closureText(p) : null;
  if (closure !== null) rows.push(...kit.field("Closure", closure, width, ["dim"]));
  if (p?.unpinnable) rows.push(...kit.field("Pinned", unpinnableMark(p.unpinnable), width, ["red", "bold"]));
  if (h.fetch !== null) {
    rows.push(
      ...kit.field("Network", `fetches at run time (${h.fetch}): what it fetches is not pinned`, width, ["red"]),
    );
  }
  return rows;
}

/**
 * What changed in a `modified` hook, shown first in its details (without its `heading`: for a change
 * group, which says it itself); empty for any other hook.
 */
export function changeRows(app: ReviewApp, h: HookView, width: number, kit: RowKit, heading = true): Row[] {
  if (h.status !== "modified") return [];
  const rows: Row[] = [];
  if (heading) {
    rows.push(
      ...kit.text(`What changed since it was trusted — ${h.modifiedReason ?? "modified"}:`, width, ["red", "bold"]),
    );
  }
  const copy = app.trustedCopies.get(h.key) ?? null;
  if (h.modifiedReason === "modified") {
    // The definition itself changed.
    if (copy === null) {
      rows.push(
        ...kit.text(
          "No copy of the trusted definition is kept (it was trusted elsewhere, or the copy under hooks/trusted/ was removed): only the hashes show that it changed.",
          width,
          ["yellow"],
        ),
      );
    } else {
      if (copy.hash !== h.trustedHash) {
        rows.push(...kit.text(`The kept copy is of ${copy.hash}, not of the stored trusted hash.`, width, ["yellow"]));
      }
      rows.push(
        ...kit.text(`Changed since trusted ${timeAndAge(copy.trustedAt, Date.now())}:  - trusted   + now`, width, [
          "bold",
        ]),
      );
      const d = h.handler.handler;
      const after = definitionText({ event: h.event, matcher: h.matcher, handler: d as Record<string, unknown> });
      rows.push(...diffRows(definitionText(copy), after, width, kit));
    }
    return rows;
  }
  const p = h.pinned;
  if (p === null) return rows;
  if (p.error !== null) {
    rows.push(...kit.text(`Its files cannot be pinned: ${p.error}`, width, ["red"]));
    return rows;
  }
  if (p.unrecorded) {
    rows.push(
      ...kit.text(
        "It was trusted before mind-hooks pinned the files hooks run, so nothing records what they were: read them, then t pins them.",
        width,
        ["yellow"],
      ),
    );
    return rows;
  }
  const now = app.currentFiles.get(h.key);
  for (const f of p.files.filter((x) => x.state !== "pinned" && x.state !== "unpinned")) {
    rows.push([]);
    if (f.state === "removed") {
      rows.push(...kit.text(`${f.path}: removed`, width, ["bold"]));
      continue;
    }
    const current = now?.get(f.path);
    if (f.state === "added") {
      rows.push(...kit.text(`${f.path}: added (not there when it was trusted)`, width, ["bold"]));
      if (current?.text != null) rows.push(...diffRows("", current.text, width, kit));
      else {rows.push(
          ...kit.text(`its content is not shown: ${current?.unavailable ?? "unreadable"}`, width, ["yellow"]),
        );}
      continue;
    }
    const since = copy === null ? "" : ` since trusted ${timeAndAge(copy.trustedAt, Date.now())}`;
    rows.push(...kit.text(`${f.path}: changed${since}  - trusted   + now`, width, ["bold"]));
    const trusted = copy?.files?.[f.path];
    const before = trusted?.text ?? null;
    const why = trusted === undefined
      ? "no copy of the trusted file is kept (it was trusted elsewhere, or before copies were kept)"
      : trusted.unavailable ?? (current?.text == null ? current?.unavailable ?? "unreadable now" : null);
    if (before === null || current?.text == null) {
      rows.push(...kit.text(`diff unavailable: ${why ?? "unreadable"}`, width, ["yellow"]));
    } else rows.push(...diffRows(before, current.text, width, kit));
  }
  return rows;
}

/** Lines of context kept around a file's change. */
const CONTEXT = 3;

/**
 * The diff of two texts around their change: the common head and tail are cut to {@link CONTEXT}
 * lines, so that a one-line edit of a long script stays a short, exact diff.
 */
export function changeDiff(before: string, after: string): DiffLine[] {
  const a = before === "" ? [] : before.split("\n");
  const b = after === "" ? [] : after.split("\n");
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const kept = (lines: string[]) => lines.map((text): DiffLine => ({ op: " ", text }));
  return [
    ...kept(a.slice(Math.max(0, head - CONTEXT), head)),
    ...diffLines(a.slice(head, a.length - tail), b.slice(head, b.length - tail)),
    ...kept(a.slice(a.length - tail, a.length - tail + CONTEXT)),
  ];
}

/** A line diff as rows: removed lines red, added green, the rest dim; bounded. */
function diffRows(before: string, after: string, width: number, kit: RowKit): Row[] {
  const rows: Row[] = [];
  const lines = changeDiff(before, after);
  for (const line of lines.slice(0, MAX_DIFF_LINES)) {
    const styles: Style[] = line.op === "-" ? ["red"] : line.op === "+" ? ["green"] : ["dim"];
    rows.push(...kit.text(`${line.op} ${line.text}`, width, styles, "    "));
  }
  if (lines.length > MAX_DIFF_LINES) {
    rows.push(...kit.text(`… ${lines.length - MAX_DIFF_LINES} more lines`, width, ["dim"]));
  }
  return rows;
}
