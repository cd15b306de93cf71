/**
 * Trust actions shared by the `trust`/`untrust`/`enable`/`disable` commands,
 * `review` and `serve`: resolve keys against the catalog, refuse what must not
 * change (unknown keys, managed hooks), write the user config once, and keep
 * the trusted copies in step.
 * @module
 */
import type { Catalog, HookHandler } from "../config/discovery.ts";
import { type StatePatch, writeHookStates } from "./state_writer.ts";
import { removeTrusted, storeTrusted } from "./trusted_store.ts";
import { keyHasTail } from "./hash.ts";

/** A state action. */
export type TrustAction = "trust" | "untrust" | "enable" | "disable";

/** The patch an action writes for one hook. */
export function patchFor(action: TrustAction, h: HookHandler): StatePatch {
  switch (action) {
    case "trust":
      return { trustedHash: h.hash };
    case "untrust":
      return { trustedHash: null };
    case "enable":
      return { enabled: true };
    case "disable":
      return { enabled: false };
  }
}

/**
 * The handler `given` names: its exact key, else the one handler whose key ends with `given` at a
 * boundary of the key (after `:` or a path separator), so `PreToolUse:0:0` or
 * `hooks.json:PreToolUse:0:0` is enough when only one hook fits.
 */
export function resolveKey(
  handlers: readonly HookHandler[],
  given: string,
): { handler: HookHandler } | { candidates: HookHandler[] } {
  const exact = handlers.find((h) => h.key === given);
  if (exact) return { handler: exact };
  const fits = handlers.filter((h) => keyHasTail(h.key, given));
  return fits.length === 1 ? { handler: fits[0] } : { candidates: fits };
}

/**
 * Resolves keys (each a full key or a unique tail of one, see {@link resolveKey}); a key given twice
 * counts once. The error names every unknown, ambiguous (with the keys it could mean) or read-only
 * key, and nothing is written.
 */
export function resolveKeys(
  catalog: Catalog,
  keys: readonly string[],
): { handlers: HookHandler[] } | { error: string } {
  const handlers: HookHandler[] = [];
  const unknown: string[] = [];
  const ambiguous: string[] = [];
  for (const given of new Set(keys)) {
    const r = resolveKey(catalog.handlers, given);
    if ("handler" in r) {
      if (!handlers.includes(r.handler)) handlers.push(r.handler);
    } else if (r.candidates.length === 0) unknown.push(given);
    else ambiguous.push(`${given} could be any of ${r.candidates.map((h) => h.key).join(", ")}`);
  }
  if (unknown.length || ambiguous.length) {
    const parts: string[] = [];
    if (unknown.length) {
      parts.push(`unknown hook key${unknown.length > 1 ? "s" : ""}: ${unknown.join(", ")} (see mind-hooks list)`);
    }
    if (ambiguous.length) parts.push(`ambiguous: ${ambiguous.join("; ")} (give more of the key)`);
    return { error: `${parts.join("; ")}; nothing written` };
  }
  const managed = handlers.filter((h) => h.layer === "managed");
  if (managed.length) {
    return { error: `managed hooks are read-only: ${managed.map((h) => h.key).join(", ")}; nothing written` };
  }
  return { handlers };
}

/** Applies `action` to `handlers` in one locked, atomic write of the user config. */
export async function applyAction(
  catalog: Catalog,
  action: TrustAction,
  handlers: HookHandler[],
): Promise<{ ok: true } | { ok: false; error: string }> {
  const patches = new Map(handlers.map((h) => [h.key, patchFor(action, h)]));
  const res = await writeHookStates(catalog.userConfigPath, patches);
  if (!res.ok) return { ok: false, error: `${catalog.userConfigPath}: ${res.error.message} (file unchanged)` };
  for (const h of handlers) {
    if (action === "trust") await storeTrusted(catalog.home, h);
    else if (action === "untrust") await removeTrusted(catalog.home, h.key);
  }
  return { ok: true };
}
