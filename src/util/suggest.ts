/**
 * "Did you mean …?" for every name a person types: commands, options, actions, event names (in an
 * event's `hook_event_name`, in `schema … EVENT`, as a key of a hooks file). A typo gets the
 * closest known name by edit distance; anything farther gets nothing rather than a wild guess.
 * @module
 */

/** Inputs longer than this get no suggestion: the distance costs length × length, and no name is this long. */
const MAX_INPUT = 64;

/**
 * The optimal-string-alignment distance between `a` and `b`: insertions, deletions, substitutions
 * and swaps of two neighbouring characters each cost 1 (`lsit` → `list` is 1).
 */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => {
    const row = new Array<number>(cols).fill(0);
    row[0] = i;
    return row;
  });
  for (let j = 0; j < cols; j++) d[0][j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.length][b.length];
}

/** How far a typo of `name` may be from it: one edit per three characters, at least one. */
function tolerance(name: string): number {
  return Math.max(1, Math.floor(name.length / 3));
}

/**
 * The known name `input` most likely meant, or null: the closest by {@link editDistance} ignoring
 * case (so `PreTooluse` finds `PreToolUse`) within a third of its length, else the only name that
 * `input` (three characters at least) begins. Ties go to the earlier candidate.
 */
export function closest(input: string, candidates: Iterable<string>): string | null {
  if (input.length === 0 || input.length > MAX_INPUT) return null;
  const lower = input.toLowerCase();
  let best: string | null = null;
  let bestDistance = Infinity;
  const prefixed: string[] = [];
  for (const c of candidates) {
    if (c === input) return null;
    const d = editDistance(lower, c.toLowerCase());
    if (d <= tolerance(c) && d < bestDistance) {
      best = c;
      bestDistance = d;
    }
    if (input.length >= 3 && c.toLowerCase().startsWith(lower)) prefixed.push(c);
  }
  if (best !== null) return best;
  return prefixed.length === 1 ? prefixed[0] : null;
}

/**
 * `; did you mean "list"?` for the closest candidate (rendered by `show`, JSON-quoted by default),
 * or `""` when none is close: appended to the sentence that refused `input`.
 */
export function didYouMean(
  input: string,
  candidates: Iterable<string>,
  show: (name: string) => string = (n) => JSON.stringify(n),
): string {
  const match = closest(input, candidates);
  return match === null ? "" : `; did you mean ${show(match)}?`;
}
