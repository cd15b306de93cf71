/**
 * The one line diff (longest common subsequence) of the engine: a `modified` hook's definition
 * against the copy the user trusted (SPEC §14, `review`), and the unified diff `install --dry-run`
 * prints of a host's settings file. Inputs are small (definitions, settings files), so the quadratic
 * table costs nothing; above {@link MAX_CELLS} the diff degrades to "all removed, all added" rather
 * than allocate a huge table for a hostile multi-megabyte text.
 * @module
 */

/** One diff line: kept (` `), removed from the old text (`-`), or added in the new one (`+`). */
export type DiffLine = { op: " " | "-" | "+"; text: string };

/** Above this many cells in the LCS table the diff degrades to remove-all/add-all. */
const MAX_CELLS = 4_000_000;

/** The diff from the lines `a` to the lines `b`; on a tie, removals come before additions. */
export function diffLines(a: readonly string[], b: readonly string[]): DiffLine[] {
  if ((a.length + 1) * (b.length + 1) > MAX_CELLS) {
    return [...a.map((text) => ({ op: "-" as const, text })), ...b.map((text) => ({ op: "+" as const, text }))];
  }
  // lcs[i][j] = length of the LCS of a[i..] and b[j..].
  const w = b.length + 1;
  const lcs = new Uint32Array((a.length + 1) * w);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * w + j] = a[i] === b[j]
        ? lcs[(i + 1) * w + j + 1] + 1
        : Math.max(lcs[(i + 1) * w + j], lcs[i * w + j + 1]);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      out.push({ op: " ", text: a[i] });
      i++;
      j++;
    } else if (lcs[(i + 1) * w + j] >= lcs[i * w + j + 1]) out.push({ op: "-", text: a[i++] });
    else out.push({ op: "+", text: b[j++] });
  }
  while (i < a.length) out.push({ op: "-", text: a[i++] });
  while (j < b.length) out.push({ op: "+", text: b[j++] });
  return out;
}

/** The line diff of two texts split at `\n`. */
export function lineDiff(before: string, after: string): DiffLine[] {
  return diffLines(before.split("\n"), after.split("\n"));
}

/** Lines of changes kept around each hunk of a unified diff. */
const CONTEXT = 3;

/** A unified diff (`---`/`+++` headers, `@@` hunks with 3 lines of context) of two texts; "" when equal. */
export function unifiedDiff(oldText: string, newText: string, oldName: string, newName: string): string {
  if (oldText === newText) return "";
  const lines = (t: string) => t === "" ? [] : t.replace(/\r?\n$/, "").split(/\r?\n/);
  // Each op records how many old and new lines come before it, which gives the hunk headers directly.
  const ops: (DiffLine & { oi: number; ni: number })[] = [];
  let oi = 0;
  let ni = 0;
  for (const d of diffLines(lines(oldText), lines(newText))) {
    ops.push({ ...d, oi, ni });
    if (d.op !== "+") oi++;
    if (d.op !== "-") ni++;
  }
  const out = [`--- ${oldName}`, `+++ ${newName}`];
  let k = 0;
  while (k < ops.length) {
    if (ops[k].op === " ") {
      k++;
      continue;
    }
    const start = Math.max(0, k - CONTEXT);
    let end = k;
    // Extend the hunk while changes are closer than two contexts apart.
    while (end < ops.length) {
      if (ops[end].op !== " ") {
        end++;
        continue;
      }
      let run = end;
      while (run < ops.length && ops[run].op === " ") run++;
      if (run === ops.length || run - end > 2 * CONTEXT) {
        end = Math.min(ops.length, end + CONTEXT);
        break;
      }
      end = run;
    }
    const hunk = ops.slice(start, end);
    const oldLen = hunk.filter((o) => o.op !== "+").length;
    const newLen = hunk.filter((o) => o.op !== "-").length;
    const oldStart = oldLen === 0 ? hunk[0].oi : hunk[0].oi + 1;
    const newStart = newLen === 0 ? hunk[0].ni : hunk[0].ni + 1;
    out.push(`@@ -${oldStart},${oldLen} +${newStart},${newLen} @@`);
    for (const o of hunk) out.push(o.op + o.text);
    k = end;
  }
  return out.join("\n") + "\n";
}
