/**
 * A `mind-hooks test` case's expectations checked against what a dispatch answered (SPEC §16): the
 * decision (`none` for no decision), the reason (a regular expression), substrings of the additional
 * context, `continue`, the fields of the rewritten input, and per-hook run statuses. Pure.
 * @module
 */
import type { DispatchResult } from "../schema/result.ts";
import type { JsonObject } from "../util/json.ts";
import { keyHasTail } from "../trust/hash.ts";
import type { TestCase } from "./test_file.ts";
import type { HostAnswer } from "./case_event.ts";

/** What a case's dispatch answered, in the fields a case expects (`runs` only from mind's own result). */
export type Observed = HostAnswer & { runs: DispatchResult["runs"] | null };

/** The fields of a §9 result that a case checks. */
export function observedOf(result: DispatchResult): Observed {
  return {
    decision: result.decision,
    reason: result.reason,
    context: result.additionalContext,
    continue: result.continue,
    updatedInput: result.updatedInput as JsonObject | null,
    runs: result.runs,
  };
}

/** The same JSON value (key order aside). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length &&
    ka.every((k) => Object.hasOwn(b, k) && sameJson((a as JsonObject)[k], (b as JsonObject)[k]));
}

const show = (v: unknown) => JSON.stringify(v);

/**
 * Every way `observed` misses what case `c` expects, one short phrase each (empty: the case passed).
 * A `reason` that is not a valid regular expression is a failure that says so.
 */
export function unmet(c: TestCase, observed: Observed): string[] {
  const out: string[] = [];
  if (c.decision !== undefined) {
    const got = observed.decision ?? "none";
    if (got !== c.decision) out.push(`decision ${got}, expected ${c.decision}`);
  }
  if (c.reason !== undefined) {
    let re: RegExp | null = null;
    try {
      re = new RegExp(c.reason);
    } catch {
      out.push(`reason ${show(c.reason)} is not a regular expression`);
    }
    if (re && !re.test(observed.reason ?? "")) out.push(`reason ${show(observed.reason)} does not match /${c.reason}/`);
  }
  const context = observed.context.join("\n");
  for (const part of c.context ?? []) {
    if (!context.includes(part)) out.push(`context lacks ${show(part)} (got ${show(observed.context)})`);
  }
  if (c.continue !== undefined && observed.continue !== c.continue) {
    out.push(`continue ${observed.continue}, expected ${c.continue}`);
  }
  if (c.updatedInput !== undefined) {
    const got = observed.updatedInput;
    const missing = Object.entries(c.updatedInput).filter(([k, v]) => !got || !sameJson(got[k], v));
    if (missing.length > 0) out.push(`updatedInput ${show(got)}, expected ${show(c.updatedInput)}`);
  }
  for (const [given, status] of Object.entries(c.runs ?? {})) {
    // A key, or a tail of one naming one run (as trust takes it).
    const fits = (observed.runs ?? []).filter((r) => r.key === given || keyHasTail(r.key, given));
    const run = fits.length === 1 ? fits[0] : undefined;
    if (!run) out.push(fits.length ? `runs: ${given} names ${fits.length} hooks` : `runs: no hook ${given} matched`);
    else if (run.status !== status) {
      out.push(`${run.key} ${run.status}${run.reason ? ` (${run.reason})` : ""}, expected ${status}`);
    }
  }
  return out;
}
