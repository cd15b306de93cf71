/**
 * The trust verdict (SPEC §3.4, §3.5, §6): the one place that decides whether a hook is `managed`,
 * `trusted`, `untrusted` or `modified` (by its definition, or by a pinned file — an unpinnable hook
 * under `require_pins` is one of those), why a modified hook is, and whether it may run now.
 *
 * Handlers are plain records of facts (the stored trusted hash, the enabled flag, the pin scope); the
 * pin check of the disk is an input here ({@link PinChecks}, from `checkPins`), never a write into a
 * handler. So a verdict depends only on its arguments: read in any order, copied, cloned or sent as
 * JSON, a handler says the same thing, and a hook whose pins were not checked is `modified`, never
 * `trusted` by omission.
 * @module
 */
import { type HashedHook, hookHash, type HookKey } from "./hash.ts";
import type { Layer } from "../schema/handler.ts";
import type { PinCheck, PinSet } from "./pins.ts";

/** Trust status (SPEC §3.4). */
export type TrustStatus = "managed" | "trusted" | "modified" | "untrusted";

/** Why a matched hook does not run (SPEC §3.4, §6). */
export type SkipReason = "untrusted" | "modified" | "disabled";

/** One hook's pinned files as they are on disk now, and how they compare with the stored ones. */
export type PinOutcome = { readonly current: PinSet; readonly check: PinCheck };

/** The pin checks of a set of hooks, by key (a hook absent here was not checked). */
export type PinChecks = ReadonlyMap<HookKey, PinOutcome>;

/** What trust says of one hook. */
export type TrustVerdict = {
  /** SPEC §3.4: the definition's status and, for a hook with pinned files, theirs. */
  readonly status: TrustStatus;
  /** The status from the definition's hash alone (its matcher is as trusted as this says). */
  readonly definitionStatus: TrustStatus;
  /** Why a `modified` hook is: `modified` (its definition changed) or `modified: <path> changed|…`. */
  readonly modifiedReason: string | null;
  /** Null when it may run now, else why not. */
  readonly skip: SkipReason | null;
  /** Its pin check, when its pins were checked. */
  readonly pins: PinOutcome | null;
  /**
   * The block reason of a guard trusted as `failClosed` that is skipped as modified (SPEC §3.5 r4:
   * it denies on an event that can block instead of being skipped in silence), else null.
   */
  readonly changedGuard: string | null;
};

/**
 * What a verdict reads of a hook: a catalog handler (`HookHandler` of config/discovery.ts) is one.
 * Described by its fields so that trust imports nothing of config (no folder cycle).
 */
export type AssessedHook = HashedHook & {
  readonly key: HookKey;
  readonly layer: Layer;
  readonly enabled: boolean;
  /** The stored trusted hash, if any. */
  readonly trustedHash: string | null;
  /** Its pin facts, or null when it has no pin scope (only whether there are any is read here). */
  readonly pins: unknown;
  /** Whether the definition trusted was `failClosed` (SPEC §3.5 r4); absent: no. */
  readonly trustedFailClosed?: boolean;
  /** The file that holds the hook (real path), named when its definition changed. */
  readonly sourcePath?: string;
};

/** What of the catalog a verdict depends on. */
export type TrustContext = { readonly bypassTrust: boolean };

/** The reason of a hook whose pins were not checked (a caller that did not run `checkPins`). */
const UNCHECKED = "modified: its pinned files were not checked";

/** No pin checked. */
const NO_PINS: PinChecks = new Map();

/**
 * The status of a hook's definition: its current hash (`hookHash`, taken only when a trusted hash is
 * stored to compare it with) against the stored trusted one.
 */
export function definitionStatusOf(h: AssessedHook): TrustStatus {
  if (h.layer === "managed") return "managed";
  if (h.trustedHash === null) return "untrusted";
  return h.trustedHash === hookHash(h) ? "trusted" : "modified";
}

/** May a hook of this status run now (SPEC §3.4, §6)? Null when yes, else why not. */
function skipOf(status: TrustStatus, enabled: boolean, bypassTrust: boolean): SkipReason | null {
  if (status === "managed") return null;
  if (!enabled) return "disabled";
  if (bypassTrust) return null;
  return status === "untrusted" || status === "modified" ? status : null;
}

/** The verdict on one hook, given the pin checks made (see {@link assessTrust}). */
export function verdictOf(ctx: TrustContext, h: AssessedHook, pins: PinChecks = NO_PINS): TrustVerdict {
  const definitionStatus = definitionStatusOf(h);
  const pin = h.pins === null ? null : pins.get(h.key) ?? null;
  // Null while the pins hold (or there are none); else why they do not.
  const pinReason = h.pins === null ? null : pin === null ? UNCHECKED : pin.check.reason;
  const status = definitionStatus === "trusted" && pinReason !== null ? "modified" : definitionStatus;
  const modifiedReason = definitionStatus === "modified"
    ? "modified"
    : definitionStatus === "trusted"
    ? pinReason
    : null;
  const skip = skipOf(status, h.enabled, ctx.bypassTrust);
  const changedGuard = skip === "modified" && h.trustedFailClosed === true ? changedGuardReason(h, pin) : null;
  return { status, definitionStatus, modifiedReason, skip, pins: pin, changedGuard };
}

/**
 * Why a changed `failClosed` guard blocks (SPEC §3.5 r4): `hook <key> changed since you trusted it
 * (<path> changed): review it` — the file that holds its definition when that changed, else the first
 * pinned file that changed, was removed or added, or why its pins could not be read.
 */
export function changedGuardReason(h: AssessedHook, pin: PinOutcome | null): string {
  const first = pin?.check.changes[0];
  const what = definitionStatusOf(h) === "modified"
    ? `${shownPath(h)} changed`
    : first !== undefined
    ? `${first.path} ${first.change}`
    : pin !== null && !pin.current.ok
    ? `its files cannot be read: ${pin.current.error}`
    : (pin?.check.reason ?? UNCHECKED).replace(/^modified: /, "");
  return `hook ${h.key} changed since you trusted it (${what}): review it`;
}

/** The file holding a hook's definition, relative to its pin root when inside it. */
function shownPath(h: AssessedHook): string {
  const path = h.sourcePath ?? h.key;
  const root = (h.pins as { scope?: { root?: unknown } } | null)?.scope?.root;
  return typeof root === "string" && path.startsWith(root + "/") ? path.slice(root.length + 1) : path;
}

/**
 * The verdicts on `handlers` (SPEC §3.4, §3.5): the only place a trust status is decided. `pins` are
 * the pin checks made for them (`checkPins`); a hook with a pin scope and no check is `modified`.
 */
export function assessTrust(
  ctx: TrustContext,
  handlers: readonly AssessedHook[],
  pins: PinChecks = NO_PINS,
): ReadonlyMap<HookKey, TrustVerdict> {
  return new Map(handlers.map((h) => [h.key, verdictOf(ctx, h, pins)]));
}

/** Why a skipped hook did not run, in the words a run record uses (`modified: .mind/a.sh changed`), or null. */
export function skipWords(v: TrustVerdict): string | null {
  return v.skip === "modified" ? v.modifiedReason ?? v.skip : v.skip;
}
