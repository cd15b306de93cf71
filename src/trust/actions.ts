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

/** Resolves keys; the error names every unknown or read-only key and nothing is written. */
export function resolveKeys(
  catalog: Catalog,
  keys: readonly string[],
): { handlers: HookHandler[] } | { error: string } {
  const byKey = new Map(catalog.handlers.map((h) => [h.key, h]));
  const unknown = keys.filter((k) => !byKey.has(k));
  if (unknown.length) {
    return {
      error: `unknown hook key${unknown.length > 1 ? "s" : ""}: ${
        unknown.join(", ")
      } (see mind-hooks list); nothing written`,
    };
  }
  const handlers = keys.map((k) => byKey.get(k)!);
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
