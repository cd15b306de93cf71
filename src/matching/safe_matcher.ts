/**
 * Matching the regex matcher of a hook that will not run (untrusted or modified) without letting it
 * stall the dispatch (SPEC §15: such a matcher costs at most 50 ms per dispatch).
 *
 * JavaScript's regex engine backtracks: `^(\w|\w\w)*!` against a 60-character tool name (the model
 * picks tool names) runs for hours. A hook nobody trusted still has to be matched, because a matched
 * skipped hook is reported (`runs`, "N hooks need review"). So those matchers run on re2js, a
 * linear-time engine (loaded only when such a matcher is met), with bounded pattern and subject
 * sizes and one time budget per dispatch. Whatever cannot be checked that way — a pattern the
 * engine lacks (lookaround, backreferences), one too long, a subject too long, the budget spent —
 * counts as matched: the hook is skipped anyway, and reporting it is the safe side.
 * @module
 */
import type { Matcher } from "./matcher.ts";
import { cpuTimeMs } from "../util/timer.ts";
import { fail, ok, type Result } from "../util/result.ts";

type Re2 = typeof import("re2js").RE2JS;
type Re2Pattern = ReturnType<Re2["compile"]>;

/** Longest pattern the linear-time engine compiles (its cost grows with pattern × subject). */
export const SAFE_PATTERN_MAX = 256;
/** Longest subject (tool name, agent type …) it is tested against. */
export const SAFE_SUBJECT_MAX = 256;
/**
 * What all untrusted matchers of one dispatch may take together, counted from when the engine is
 * loaded; past it the rest count as matched. One evaluation within the size bounds costs a few
 * milliseconds. The import itself (10–15 ms, once per process) is a fixed cost no pattern can
 * stretch, and is left out: counted in, a loaded machine spent the budget on it and reported
 * matchers as matched that the engine would have cleared. Together they stay near SPEC §15's 50 ms.
 * Counted in this process's CPU time ({@link cpuTimeMs}): what the engine spends, not what other
 * processes of a busy machine take from it.
 */
export const SAFE_BUDGET_MS = 35;

/** The `unchecked` reason once the budget is spent (callers report these together, not one by one). */
export const BUDGET_SPENT = `the ${SAFE_BUDGET_MS} ms budget for untrusted matchers of one dispatch was spent`;

/** The outcome for one hook: matched or not, and why it was not really checked (if it was not). */
export type SafeOutcome = { matched: boolean; unchecked: string | null };

let engine: Promise<Re2> | null = null;
/** Compiled patterns per matcher (a `serve` catalog keeps its matchers across events). */
const compiled = new WeakMap<Matcher, Result<Re2Pattern>>();

/** The linear-time engine, imported on first use. */
export function loadSafeEngine(): Promise<Re2> {
  engine ??= import("re2js").then((m) => m.RE2JS);
  return engine;
}

/** `m` compiled for the linear-time engine (once per matcher), or why it cannot be. */
function compile(re2: Re2, m: Extract<Matcher, { kind: "regex" }>): Result<Re2Pattern> {
  let c = compiled.get(m);
  if (!c) {
    try {
      c = ok(re2.compile(re2.translateRegExp(m.re.source)));
    } catch {
      c = fail("it uses syntax the linear-time engine lacks (lookaround or backreferences)");
    }
    compiled.set(m, c);
  }
  return c;
}

/**
 * One dispatch's evaluation of untrusted matchers: {@link SafeMatching.match} may be called for
 * each such hook; all of them share the budget that starts once the engine is loaded.
 */
export class SafeMatching {
  #deadline = Infinity;
  #re2: Re2 | null = null;
  #evaluated = 0;
  readonly #clock: () => number;

  /** `clock`: milliseconds of the budget's clock (this process's CPU time; a test gives its own). */
  constructor(clock: () => number = cpuTimeMs) {
    this.#clock = clock;
  }

  /** How many patterns the engine has run so far: the work the budget bounds. */
  get evaluated(): number {
    return this.#evaluated;
  }

  /** Whether `m` matches any of `subjects`, judged without backtracking. */
  async match(m: Matcher, subjects: readonly string[]): Promise<SafeOutcome> {
    if (m.kind !== "regex") throw new Error("SafeMatching is for regex matchers");
    if (m.re.source.length > SAFE_PATTERN_MAX) {
      return { matched: true, unchecked: `the pattern is longer than ${SAFE_PATTERN_MAX} characters` };
    }
    if (subjects.some((s) => s.length > SAFE_SUBJECT_MAX)) {
      return {
        matched: true,
        unchecked: `the name it is tested against is longer than ${SAFE_SUBJECT_MAX} characters`,
      };
    }
    if (this.#clock() > this.#deadline) return this.#spent();
    if (this.#re2 === null) {
      try {
        this.#re2 = await loadSafeEngine();
      } catch {
        // Never a reason to fail the dispatch: the hook is skipped anyway.
        return { matched: true, unchecked: "the linear-time regex engine could not be loaded" };
      }
      this.#deadline = this.#clock() + SAFE_BUDGET_MS;
    }
    const compiledPattern = compile(this.#re2, m);
    if (!compiledPattern.ok) return { matched: true, unchecked: compiledPattern.error };
    const pattern = compiledPattern.value;
    try {
      this.#evaluated++;
      return { matched: subjects.some((s) => pattern.matcher(s).find()), unchecked: null };
    } catch {
      return { matched: true, unchecked: "the linear-time regex engine failed on it" };
    }
  }

  #spent(): SafeOutcome {
    return { matched: true, unchecked: BUDGET_SPENT };
  }
}
