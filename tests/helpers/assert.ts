/**
 * The one set of assertions of the test suite (the std library's assert module is on JSR, which is
 * not reachable from our machines). Deep equality ignores keys whose value is undefined and compares
 * Maps and Sets by their entries.
 * @module
 */

/** Deep structural equality via canonical JSON-ish comparison. */
function same(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (a instanceof Map || b instanceof Map) return a instanceof Map && b instanceof Map && sameMap(a, b);
  if (a instanceof Set || b instanceof Set) return a instanceof Set && b instanceof Set && sameSet(a, b);
  const ka = Object.keys(a as object).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b as object).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** Maps with the same keys (by identity) holding deep-equal values. */
function sameMap(a: Map<unknown, unknown>, b: Map<unknown, unknown>): boolean {
  return a.size === b.size && [...a].every(([k, v]) => b.has(k) && same(v, b.get(k)));
}

/** Sets whose members pair up deep-equally. */
function sameSet(a: Set<unknown>, b: Set<unknown>): boolean {
  if (a.size !== b.size) return false;
  const rest = [...b];
  return [...a].every((x) => {
    const i = rest.findIndex((y) => same(x, y));
    return i >= 0 && rest.splice(i, 1).length === 1;
  });
}

/** A value in a failure message: JSON, or Deno's rendering where JSON says nothing (Map, Set). */
function show(v: unknown): string {
  return v instanceof Map || v instanceof Set ? Deno.inspect(v, { depth: 8 }) : JSON.stringify(v);
}

/** The prefix of a failure message. */
function prefix(msg?: string): string {
  return msg ? msg + ": " : "";
}

/** Throws unless `actual` deep-equals `expected`. */
export function assertEquals<T>(actual: T, expected: T, msg?: string): void {
  if (!same(actual, expected)) {
    throw new Error(`${prefix(msg)}expected ${show(expected)}, got ${show(actual)}`);
  }
}

/** Throws if `actual` deep-equals `expected`. */
export function assertNotEquals<T>(actual: T, expected: T, msg?: string): void {
  if (same(actual, expected)) throw new Error(`${prefix(msg)}expected anything but ${show(expected)}`);
}

/** Throws unless `cond` is truthy. */
export function assert(cond: unknown, msg = "assertion failed"): asserts cond {
  if (!cond) throw new Error(msg);
}

/** Throws unless `text` contains `part`. */
export function assertStringIncludes(text: string, part: string, msg?: string): void {
  if (!text.includes(part)) {
    throw new Error(`${prefix(msg)}expected ${JSON.stringify(text)} to include ${JSON.stringify(part)}`);
  }
}

/** Throws unless `text` is a string that `re` matches. */
export function assertMatch(text: string, re: RegExp, msg?: string): void {
  if (typeof text !== "string" || !re.test(text)) {
    throw new Error(msg ?? `${re} does not match ${JSON.stringify(text)}`);
  }
}

/** Throws unless `text` is a string that `re` does not match. */
export function assertNotMatch(text: string, re: RegExp, msg?: string): void {
  if (typeof text !== "string" || re.test(text)) {
    throw new Error(msg ?? `${re} matches ${JSON.stringify(text)}`);
  }
}

/** What a thrown error must be: an instance of a class, or an error whose `String()` a pattern matches. */
export type ErrorExpectation = RegExp | (abstract new (...args: never[]) => Error);

/** Why `e` is not the error `expected` describes, or null when it is. */
function errorMismatch(e: unknown, expected: ErrorExpectation | undefined): string | null {
  if (expected === undefined) return null;
  if (expected instanceof RegExp) return expected.test(String(e)) ? null : `${expected} does not match ${String(e)}`;
  return e instanceof expected ? null : `expected ${expected.name}, got ${String(e)}`;
}

/**
 * Throws unless `fn` throws (an error `expected` describes, if given). A string in place of
 * `expected` is the failure message.
 */
export function assertThrows(fn: () => unknown, expected?: ErrorExpectation | string, msg?: string): void {
  const [want, text] = typeof expected === "string" ? [undefined, expected] : [expected, msg];
  try {
    fn();
  } catch (e) {
    const mismatch = errorMismatch(e, want);
    if (mismatch) throw new Error(`${prefix(text)}${mismatch}`);
    return;
  }
  throw new Error(text ?? "expected an exception");
}

/** Throws unless `work` (a promise, or a function returning one) rejects (as `expected` describes, if given). */
export async function assertRejects(
  work: Promise<unknown> | (() => Promise<unknown>),
  expected?: ErrorExpectation,
  msg?: string,
): Promise<void> {
  try {
    await (typeof work === "function" ? work() : work);
  } catch (e) {
    const mismatch = errorMismatch(e, expected);
    if (mismatch) throw new Error(`${prefix(msg)}${mismatch}`);
    return;
  }
  throw new Error(msg ?? "expected a rejection");
}
