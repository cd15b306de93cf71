/**
 * The one shape of a fallible operation's outcome (issue 26): a value, or a failure as data — one fixed
 * sentence made where the failure is detected, or, where a failure carries more than a sentence, a
 * small typed object. Thrown errors are kept for usage errors at the command-line edge.
 * @module
 */

/** A value, or why there is none. */
export type Result<T, E = string> = { readonly ok: true; readonly value: T } | {
  readonly ok: false;
  readonly error: E;
};

/** The success of `value`. */
export function ok<T>(value: T): Result<T, never> {
  return { ok: true, value };
}

/** The failure `error`. */
export function fail<E = string>(error: E): Result<never, E> {
  return { ok: false, error };
}
