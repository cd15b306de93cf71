/**
 * Trust actions shared by the `trust`/`untrust`/`enable`/`disable` commands,
 * `review` and `serve`: resolve keys against the catalog, refuse what must not
 * change (unknown keys, managed hooks), write the user config once, and keep
 * the trusted copies in step.
 *
 * Trusting records what runs (SPEC §3.5): the definition's hash and, for a hook
 * whose layer's root is a project's or a plugin's, the hashes of its pinned
 * files, read now. A hook whose files cannot be pinned (past the bounds,
 * unreadable) is refused by name; the others are still trusted. `review` plans
 * a trust when it asks for confirmation and writes exactly that plan, after
 * checking that nothing changed since it was shown (see {@link samePlan}).
 * @module
 */
import type { Layer } from "../schema/handler.ts";
import type { PinScope } from "./pin_scope.ts";
import { type StatePatch, type StateWriteError, writeHookStates } from "../state/state_writer.ts";
import { COPY_FILE_MAX, COPY_TOTAL_MAX, removeTrusted, storeTrusted, type TrustedSubject } from "./trusted_store.ts";
import type { PinnedFiles } from "./pins.ts";
import { hookHash, keyHasTail } from "./hash.ts";
import { fail, ok, type Result } from "../util/result.ts";

/** A state action. */
export type TrustAction = "trust" | "untrust" | "enable" | "disable";

/**
 * A hook as the actions need it; a catalog handler (`HookHandler` of config/discovery.ts) is one.
 * Said by its parts, so trust imports nothing of the config folder, which builds on it.
 */
export type ActionHook = TrustedSubject & {
  layer: Layer;
  enabled: boolean;
  /** Its pin facts, or null when its layer's root is not a project's or a plugin's. */
  pins: { scope: PinScope; requirePins: boolean } | null;
};

/** What the actions need of a catalog: its handlers, and where the state is written. */
export type ActionCatalog<H extends ActionHook = ActionHook> = {
  handlers: readonly H[];
  home: string;
  userConfigPath: string;
};

/** What trusting one hook records. */
export type TrustItem<H extends ActionHook = ActionHook> = {
  handler: H;
  hash: string;
  /** Its pinned files (SPEC §3.5), or null for a hook without a pin scope (nothing is written for it). */
  files: PinnedFiles | null;
  /** The bytes read to hash them (the copies kept for diffs, within the copy caps). */
  contents: ReadonlyMap<string, Uint8Array>;
  /** What makes the command fetch from the network at run time, or null (SPEC §3.5: not covered). */
  fetch: string | null;
  /** The construct that keeps the reader from telling which files it runs, or null (SPEC §3.5 r3). */
  unpinnable: string | null;
};

/** A hook that cannot be trusted, and why. */
export type TrustRefusal = { key: string; reason: string };

/** What a trust of some hooks would record. */
export type TrustPlan<H extends ActionHook = ActionHook> = { items: TrustItem<H>[]; refused: TrustRefusal[] };

/** The outcome of an action: what was written, and which hooks were refused (nothing for them). */
export type ActionResult<H extends ActionHook = ActionHook> =
  | { ok: true; items: TrustItem<H>[]; refused: TrustRefusal[] }
  | { ok: false; error: string };

/** Plans a trust of `handlers`: each one's hash and pinned files as they are on disk now. */
export async function planTrust<H extends ActionHook>(handlers: readonly H[]): Promise<TrustPlan<H>> {
  const plan: TrustPlan<H> = { items: [], refused: [] };
  const withPins = handlers.some((h) => h.pins !== null);
  const pins = withPins ? await import("./pins.ts") : null;
  const results = await Promise.all(handlers.map(async (h): Promise<Result<TrustItem<H>, TrustRefusal>> => {
    if (h.pins === null || pins === null) {
      return ok({ handler: h, hash: hookHash(h), files: null, contents: new Map(), fetch: null, unpinnable: null });
    }
    const set = await pins.currentPins(h.pins.scope, { keepBytes: COPY_FILE_MAX, keepTotal: COPY_TOTAL_MAX });
    if (!set.ok) return fail({ key: h.key, reason: `its files cannot be pinned: ${set.error}` });
    if (set.unpinnable !== null && h.pins.requirePins) {
      return fail({
        key: h.key,
        reason: `cannot tell which files this runs: ${set.unpinnable} (hooks.require_pins is set)`,
      });
    }
    return ok({
      handler: h,
      hash: hookHash(h),
      files: set.files,
      contents: set.contents,
      fetch: set.fetch,
      unpinnable: set.unpinnable,
    });
  }));
  for (const r of results) {
    if (r.ok) plan.items.push(r.value);
    else plan.refused.push(r.error);
  }
  return plan;
}

/** Whether two plans record the same thing (keys, hashes, pinned files): a review re-shows when not. */
export function samePlan(a: TrustPlan, b: TrustPlan): boolean {
  const facts = (p: TrustPlan) =>
    JSON.stringify([
      p.items.map((i) => [i.handler.key, i.hash, i.files === null ? null : Object.entries(i.files), i.unpinnable]),
      p.refused.map((r) => [r.key, r.reason]),
    ]);
  return facts(a) === facts(b);
}

/** The patch an action writes for one hook (a trust writes what `item` recorded). */
export function patchFor(action: TrustAction, h: ActionHook, item?: TrustItem): StatePatch {
  switch (action) {
    case "trust": {
      // A guard the user said must not fail open keeps saying so once changed (SPEC §3.5 r4).
      const trustedFailClosed = h.handler.failClosed === true ? true : null;
      return item?.files
        ? { trustedHash: item.hash, trustedFiles: item.files, unpinnable: item.unpinnable, trustedFailClosed }
        : { trustedHash: item?.hash ?? hookHash(h), trustedFailClosed };
    }
    case "untrust":
      return { trustedHash: null, trustedFiles: null, unpinnable: null, trustedFailClosed: null };
    case "enable":
      return { enabled: true };
    case "disable":
      return { enabled: false };
  }
}

/**
 * The handler `given` names: its exact key, else the one handler whose key ends with `given` at a
 * boundary of the key (after `:` or a path separator), so `PreToolUse:0:0` or
 * `hooks.json:PreToolUse:0:0` is enough when only one hook fits. Otherwise it fails with the handlers
 * that fit (none, or more than one).
 */
export function resolveKey<H extends ActionHook>(
  handlers: readonly H[],
  given: string,
): Result<H, H[]> {
  const exact = handlers.find((h) => h.key === given);
  if (exact) return ok(exact);
  const fits = handlers.filter((h) => keyHasTail(h.key, given));
  return fits.length === 1 ? ok(fits[0]) : fail(fits);
}

/**
 * Resolves keys (each a full key or a unique tail of one, see {@link resolveKey}); a key given twice
 * counts once. The error names every unknown, ambiguous (with the keys it could mean) or read-only
 * key, and nothing is written.
 */
export function resolveKeys<H extends ActionHook>(
  catalog: ActionCatalog<H>,
  keys: readonly string[],
): Result<H[]> {
  const handlers: H[] = [];
  const unknown: string[] = [];
  const ambiguous: string[] = [];
  for (const given of new Set(keys)) {
    const r = resolveKey(catalog.handlers, given);
    if (r.ok) {
      if (!handlers.includes(r.value)) handlers.push(r.value);
    } else if (r.error.length === 0) unknown.push(given);
    else ambiguous.push(`${given} could be any of ${r.error.map((h) => h.key).join(", ")}`);
  }
  if (unknown.length || ambiguous.length) {
    const parts: string[] = [];
    if (unknown.length) {
      parts.push(`unknown hook key${unknown.length > 1 ? "s" : ""}: ${unknown.join(", ")} (see mind-hooks list)`);
    }
    if (ambiguous.length) parts.push(`ambiguous: ${ambiguous.join("; ")} (give more of the key)`);
    return fail(`${parts.join("; ")}; nothing written`);
  }
  const managed = handlers.filter((h) => h.layer === "managed");
  if (managed.length) {
    return fail(`managed hooks are read-only: ${managed.map((h) => h.key).join(", ")}; nothing written`);
  }
  return ok(handlers);
}

/** A state write error as one line: the writer's sentence, saying once that the file is unchanged. */
export function writeErrorLine(error: StateWriteError): string {
  return /\((?:file unchanged|not written)\)|; not written$/.test(error.message)
    ? error.message
    : `${error.message} (file unchanged)`;
}

/** Applies `action` to `handlers` in one locked, atomic write of the user config. */
export async function applyAction<H extends ActionHook>(
  catalog: ActionCatalog,
  action: TrustAction,
  handlers: H[],
): Promise<ActionResult<H>> {
  if (action === "trust") return await applyTrustPlan(catalog, await planTrust(handlers));
  const patches = new Map(handlers.map((h) => [h.key, patchFor(action, h)]));
  const res = await writeHookStates(catalog.userConfigPath, patches);
  if (!res.ok) return { ok: false, error: writeErrorLine(res.error) };
  if (action === "untrust") { for (const h of handlers) await removeTrusted(catalog.home, h.key); }
  return { ok: true, items: [], refused: [] };
}

/** Writes a planned trust (every item; the refused hooks get nothing) and keeps the copies. */
export async function applyTrustPlan<H extends ActionHook>(
  catalog: ActionCatalog,
  plan: TrustPlan<H>,
): Promise<ActionResult<H>> {
  if (plan.items.length > 0) {
    const patches = new Map(plan.items.map((i) => [i.handler.key, patchFor("trust", i.handler, i)]));
    const res = await writeHookStates(catalog.userConfigPath, patches);
    if (!res.ok) return { ok: false, error: writeErrorLine(res.error) };
    for (const i of plan.items) await storeTrusted(catalog.home, i.handler, i);
  }
  return { ok: true, items: plan.items, refused: plan.refused };
}
