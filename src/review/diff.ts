/**
 * A line diff (longest common subsequence) of two short texts, for showing a
 * `modified` hook's definition against the copy the user trusted (SPEC §14).
 * Definitions are a few dozen lines, so the quadratic table costs nothing;
 * larger inputs fall back to "all removed, all added" rather than allocating
 * a huge table for a hostile multi-megabyte command.
 * @module
 */

/** One diff line: kept (` `), removed from the old text (`-`), or added in the new one (`+`). */
export type DiffLine = { op: " " | "-" | "+"; text: string };

/** Above this many cells in the LCS table the diff degrades to remove-all/add-all. */
const MAX_CELLS = 4_000_000;

/** The line diff from `before` to `after`. */
export function lineDiff(before: string, after: string): DiffLine[] {
  const a = before.split("\n");
  const b = after.split("\n");
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
    } else if (lcs[(i + 1) * w + j] >= lcs[i * w + j + 1]) {
      out.push({ op: "-", text: a[i++] });
    } else {
      out.push({ op: "+", text: b[j++] });
    }
  }
  while (i < a.length) out.push({ op: "-", text: a[i++] });
  while (j < b.length) out.push({ op: "+", text: b[j++] });
  return out;
}
