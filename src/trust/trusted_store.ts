/**
 * Copies of trusted definitions under `$MIND_HOME/hooks/trusted/` (SPEC §14),
 * so that a later `modified` hook can be shown as a diff against what the user
 * actually approved. One JSON file per hook key, named by the key's SHA-256.
 * With the definition go copies of the hook's pinned files (SPEC §3.5), so that
 * a changed script can be shown as a diff too: text files up to
 * {@link COPY_FILE_MAX} each and {@link COPY_TOTAL_MAX} per hook; for any other
 * file the copy says why there is none, and `review` says the diff is unavailable.
 * @module
 */
import { canonicalJson, type HashedHook, hookHash, type HookKey } from "./hash.ts";
import { join } from "../util/paths.ts";
import { OWNER_ONLY, writeFileAtomic } from "../util/atomic_file.ts";
import { keyFileStem, pinHashesPath } from "./pin_cache.ts";

/** A pinned file's copy: its hash, and its text, or why no text is kept. */
export type TrustedFile = { hash: string; text: string | null; unavailable: string | null };

/** What is kept for a trusted hook. */
export type TrustedDefinition = {
  key: HookKey;
  hash: string;
  event: string;
  matcher: string | null;
  handler: Record<string, unknown>;
  trustedAt: string;
  /** Its pinned files as trusted (absent in copies made before pinning). */
  files?: Record<string, TrustedFile>;
};

/** A pinned file's copy is kept up to this size… */
export const COPY_FILE_MAX = 256 * 1024;
/** …and up to this much per hook. */
export const COPY_TOTAL_MAX = 1024 * 1024;

/** What trusting a hook recorded: its hash and pinned files, with the bytes read to hash them. */
export type TrustRecord = {
  hash: string;
  files: Record<string, string> | null;
  contents: ReadonlyMap<string, Uint8Array>;
};

/** The copies of pinned files (text when it is UTF-8 text and was kept; else why not). */
export function fileCopies(record: TrustRecord): Record<string, TrustedFile> | undefined {
  if (record.files === null) return undefined;
  const out: Record<string, TrustedFile> = {};
  for (const [path, hash] of Object.entries(record.files)) {
    const bytes = record.contents.get(path);
    out[path] = bytes === undefined
      ? {
        hash,
        text: null,
        unavailable: `no copy kept (over ${COPY_FILE_MAX / 1024} KiB, or over ${
          COPY_TOTAL_MAX / 1024 / 1024
        } MiB per hook)`,
      }
      : textCopy(hash, bytes);
  }
  return out;
}

function textCopy(hash: string, bytes: Uint8Array): TrustedFile {
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    if (text.includes("\0")) return { hash, text: null, unavailable: "a binary file" };
    return { hash, text, unavailable: null };
  } catch {
    return { hash, text: null, unavailable: "a binary file" };
  }
}

function keyFileName(key: HookKey): string {
  return keyFileStem(key) + ".json";
}

/** Path of the stored copy for `key`. */
export function trustedCopyPath(home: string, key: HookKey): string {
  return join(home, "hooks", "trusted", keyFileName(key));
}

/** What a trusted copy is made of; a catalog handler (`HookHandler` of config/discovery.ts) is one. */
export type TrustedSubject = HashedHook & { readonly key: HookKey };

/** Stores the definition being trusted, and copies of its pinned files. */
export async function storeTrusted(home: string, h: TrustedSubject, record?: TrustRecord): Promise<void> {
  const def: TrustedDefinition = {
    key: h.key,
    hash: record?.hash ?? hookHash(h),
    event: h.event,
    matcher: h.matcher,
    handler: h.handler as Record<string, unknown>,
    trustedAt: new Date().toISOString(),
  };
  const files = record === undefined ? undefined : fileCopies(record);
  if (files !== undefined) def.files = files;
  const path = trustedCopyPath(home, h.key);
  await Deno.mkdir(join(home, "hooks", "trusted"), { recursive: true, mode: 0o700 });
  // Owner-only: an mcp_tool definition holds its server table (SPEC §3.2), headers included.
  await writeFileAtomic(path, JSON.stringify(def, null, 2) + "\n", { mode: OWNER_ONLY });
}

/** Removes the stored copy (untrust), and the hook's cached file hashes. */
export async function removeTrusted(home: string, key: HookKey): Promise<void> {
  await Deno.remove(trustedCopyPath(home, key)).catch(() => {});
  await Deno.remove(pinHashesPath(home, key)).catch(() => {});
}

/** Reads the stored copy, or null. */
export async function readTrusted(home: string, key: HookKey): Promise<TrustedDefinition | null> {
  try {
    return JSON.parse(await Deno.readTextFile(trustedCopyPath(home, key)));
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
