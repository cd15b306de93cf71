/**
 * The texts a modified hook's details show its change with (SPEC §3.5, §14): the kept copy of what
 * was trusted (definition and pinned files, under `$MIND_HOME/hooks/trusted/`) and the changed or
 * added files as they are now — or why a text cannot be shown (too large, binary, unreadable).
 * @module
 */
import { readTrusted, type TrustedDefinition } from "../trust/trusted_store.ts";
import type { HookView } from "./catalog_view.ts";
import { readShownFile } from "./pin_contents.ts";

/** A pinned file's text now (for a diff), or why it cannot be shown. */
export type FileText = { text: string | null; unavailable: string | null };

/** The trusted copies of the modified hooks, and the texts now of their changed and added files. */
export type ChangeTexts = {
  /** By key (null: no copy kept). */
  trustedCopies: Map<string, TrustedDefinition | null>;
  /** By key, then path. */
  currentFiles: Map<string, Map<string, FileText>>;
};

/** Reads the change texts of the modified hooks among `hooks` (each file once, however many pin it). */
export async function changeTexts(home: string, hooks: readonly HookView[]): Promise<ChangeTexts> {
  const out: ChangeTexts = { trustedCopies: new Map(), currentFiles: new Map() };
  const read = new Map<string, Promise<FileText>>();
  for (const h of hooks) {
    if (h.status !== "modified") continue;
    out.trustedCopies.set(h.key, await readTrusted(home, h.key));
    const root = h.handler.pins?.scope.root;
    const changed = h.pinned?.files.filter((f) => f.state === "changed" || f.state === "added") ?? [];
    if (root === undefined || changed.length === 0) continue;
    const texts = new Map<string, FileText>();
    for (const f of changed) {
      const path = `${root}/${f.path}`;
      if (!read.has(path)) read.set(path, readText(path));
      texts.set(f.path, await read.get(path)!);
    }
    out.currentFiles.set(h.key, texts);
  }
  return out;
}

/** A file's text for a diff: UTF-8 text up to the copy size, else why it is not shown (the one reader). */
async function readText(path: string): Promise<FileText> {
  const { text, unavailable } = await readShownFile(path);
  return { text, unavailable };
}
