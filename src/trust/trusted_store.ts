/**
 * Copies of trusted definitions under `$MIND_HOME/hooks/trusted/` (SPEC §14),
 * so that a later `modified` hook can be shown as a diff against what the user
 * actually approved. One JSON file per hook key, named by the key's SHA-256.
 * @module
 */
import { canonicalJson, type HookKey } from "./hash.ts";
import type { HookHandler } from "../config/discovery.ts";
import { join } from "../util/paths.ts";
import { OWNER_ONLY, writeFileAtomic } from "../util/atomic_file.ts";

/** What is kept for a trusted hook. */
export type TrustedDefinition = {
  key: HookKey;
  hash: string;
  event: string;
  matcher: string | null;
  handler: Record<string, unknown>;
  trustedAt: string;
};

async function keyFileName(key: HookKey): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(key)));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("") + ".json";
}

/** Path of the stored copy for `key`. */
export async function trustedCopyPath(home: string, key: HookKey): Promise<string> {
  return join(home, "hooks", "trusted", await keyFileName(key));
}

/** Stores the definition being trusted. */
export async function storeTrusted(home: string, h: HookHandler): Promise<void> {
  const def: TrustedDefinition = {
    key: h.key,
    hash: h.hash,
    event: h.event,
    matcher: h.matcher,
    handler: h.handler as Record<string, unknown>,
    trustedAt: new Date().toISOString(),
  };
  const path = await trustedCopyPath(home, h.key);
  await Deno.mkdir(join(home, "hooks", "trusted"), { recursive: true, mode: 0o700 });
  // Owner-only: an mcp_tool definition holds its server table (SPEC §3.2), headers included.
  await writeFileAtomic(path, JSON.stringify(def, null, 2) + "\n", { mode: OWNER_ONLY });
}

/** Removes the stored copy (untrust). */
export async function removeTrusted(home: string, key: HookKey): Promise<void> {
  await Deno.remove(await trustedCopyPath(home, key)).catch(() => {});
}

/** Reads the stored copy, or null. */
export async function readTrusted(home: string, key: HookKey): Promise<TrustedDefinition | null> {
  try {
    return JSON.parse(await Deno.readTextFile(await trustedCopyPath(home, key)));
  } catch {
    return null;
  }
}

/** The definition as a stable, readable text (for diffs). */
export function definitionText(
  def: { event: string; matcher: string | null; handler: Record<string, unknown> },
): string {
  return JSON.stringify(
    JSON.parse(canonicalJson({ event: def.event, matcher: def.matcher, handler: def.handler })),
    null,
    2,
  );
}
