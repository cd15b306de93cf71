/**
 * Matcher rules (SPEC §4): absent, `""` and `*` match everything; a value
 * without regex control characters matches by equality; literal alternatives
 * (`Edit|Write`) match any of them exactly; anything else is an unanchored
 * JavaScript regular expression.
 * @module
 */
import { fail, ok, type Result } from "../util/result.ts";

/** A compiled matcher. */
export type Matcher =
  | { kind: "all" }
  | { kind: "exact"; values: ReadonlySet<string> }
  | { kind: "regex"; re: RegExp };

/** Regex control characters other than `|` (which separates literal alternatives). */
const CONTROL = /[\\^$.*+?()[\]{}]/;

/** Compiles a matcher as written; an invalid regex fails with the engine's message (its group is skipped). */
export function compileMatcher(
  matcher: string | null | undefined,
): Result<Matcher> {
  if (
    matcher === null || matcher === undefined || matcher === "" ||
    matcher === "*"
  ) return ok({ kind: "all" });
  if (!CONTROL.test(matcher)) {
    return ok({ kind: "exact", values: new Set(matcher.split("|")) });
  }
  try {
    return ok({ kind: "regex", re: new RegExp(matcher) });
  } catch (e) {
    return fail(e instanceof Error ? e.message : String(e));
  }
}

/** True when the matcher matches any of `subjects` (the subject and its aliases). */
export function matcherMatches(
  m: Matcher,
  subjects: readonly string[],
): boolean {
  switch (m.kind) {
    case "all":
      return true;
    case "exact":
      return subjects.some((s) => m.values.has(s));
    case "regex":
      return subjects.some((s) => m.re.test(s));
  }
}
