/**
 * Minimal assertions for the test suite (the std library's assert module is
 * on JSR, which is not reachable from our machines).
 * @module
 */

/** Deep structural equality via canonical JSON-ish comparison. */
function same(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a as object).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b as object).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** Throws unless `actual` deep-equals `expected`. */
export function assertEquals<T>(actual: T, expected: T, msg?: string): void {
  if (!same(actual, expected)) {
    throw new Error(`${msg ? msg + ": " : ""}expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  }
}

/** Throws unless `cond` is truthy. */
export function assert(cond: unknown, msg = "assertion failed"): asserts cond {
  if (!cond) throw new Error(msg);
}

/** Throws unless `text` contains `part`. */
export function assertStringIncludes(text: string, part: string, msg?: string): void {
  if (!text.includes(part)) {
    throw new Error(`${msg ? msg + ": " : ""}expected ${JSON.stringify(text)} to include ${JSON.stringify(part)}`);
  }
}

/** Throws unless `fn` throws. */
export function assertThrows(fn: () => unknown, msg = "expected an exception"): void {
  try {
    fn();
  } catch {
    return;
  }
  throw new Error(msg);
}
