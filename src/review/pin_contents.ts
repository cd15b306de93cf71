/**
 * The content of the files a hook pins, shown before it is trusted (SPEC §14: the details and the
 * confirmation show what a trust covers — not only each file's name and hash, but what it says). The
 * details pane and the confirmation scroll, so a file is shown whole up to a bound; a file that is
 * binary, too large or unreadable says so; a file whose bytes no longer match the hash shown says that
 * it changed (the confirmation then re-shows on `y`, as it does for any change).
 *
 * The texts are read by the app (`readPinnedTexts`, each file once however many hooks pin it); the
 * rows are pure.
 * @module
 */
import { COPY_FILE_MAX } from "../trust/trusted_store.ts";
import { sha256 } from "../trust/pins.ts";
import type { HookView } from "./catalog_view.ts";
import type { TrustPlan } from "../trust/actions.ts";
import type { HookHandler } from "../config/discovery.ts";
import type { Row } from "./rows.ts";
import type { RowKit } from "./confirm.ts";

/** At most this many lines of one pinned file are shown (the rest is counted). */
const CONTENT_LINES_MAX = 300;

/** A file's text as shown (or why it is not), and the hash of the bytes read. */
export type ShownFile = { text: string | null; unavailable: string | null; hash: string | null };

/** Reads a file to show: UTF-8 text up to the copy size, else why not; the hash of what was read. */
export async function readShownFile(path: string): Promise<ShownFile> {
  let bytes: Uint8Array;
  try {
    const info = await Deno.stat(path);
    if (info.size > COPY_FILE_MAX) return { text: null, unavailable: `over ${COPY_FILE_MAX / 1024} KiB`, hash: null };
    bytes = await Deno.readFile(path);
  } catch {
    return { text: null, unavailable: "unreadable", hash: null };
  }
  const hash = await sha256(bytes);
  try {
    const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
    return text.includes("\0") ? { text: null, unavailable: "a binary file", hash } : { text, unavailable: null, hash };
  } catch {
    return { text: null, unavailable: "a binary file", hash };
  }
}

/** Reads into `into` (by absolute path) every one of `paths` not read yet. */
export async function readPinnedTexts(paths: Iterable<string>, into: Map<string, ShownFile>): Promise<void> {
  const wanted = [...new Set(paths)].filter((p) => !into.has(p));
  const read = await Promise.all(wanted.map(readShownFile));
  wanted.forEach((p, i) => into.set(p, read[i]));
}

/** The pinned files (absolute paths) whose content the details of `hooks` show. */
export function reviewPaths(hooks: readonly HookView[]): string[] {
  return hooks.flatMap((h) => contentFiles(h).map(([rel]) => pinnedPath(h.handler.pins!.scope.root, rel)));
}

/** The files (absolute paths) a trust `plan` pins: what its confirmation shows. */
export function planPaths(plan: TrustPlan<HookHandler>): string[] {
  return plan.items.flatMap((i) => {
    const root = i.handler.pins?.scope.root;
    return root === undefined || i.files === null ? [] : Object.keys(i.files).map((rel) => pinnedPath(root, rel));
  });
}

/** The absolute path of a pinned file `rel` under a hook's pin root. */
export function pinnedPath(root: string, rel: string): string {
  return `${root}/${rel}`;
}

/**
 * The pinned files of a hook that needs review whose content its details show: those a trust pins or
 * keeps pinned as they are (a changed or added file shows as its diff instead, a removed one has none).
 */
export function contentFiles(h: HookView): [string, string | null][] {
  if (h.status !== "untrusted" && h.status !== "modified") return [];
  const root = h.handler.pins?.scope.root;
  if (root === undefined || h.pinned === null || h.pinned.error !== null) return [];
  return h.pinned.files.filter((f) => f.state === "unpinned" || f.state === "pinned").map((f) => [f.path, f.hash]);
}

/** The rows showing the content of `files` (paths relative to `root`, with the hash a trust records). */
export function contentRows(
  texts: ReadonlyMap<string, ShownFile>,
  root: string,
  files: readonly (readonly [string, string | null])[],
  width: number,
  kit: RowKit,
): Row[] {
  const rows: Row[] = [];
  for (const [rel, hash] of files) {
    const shown = texts.get(pinnedPath(root, rel));
    if (shown === undefined) continue;
    if (shown.text === null) {
      rows.push(...kit.text(`── ${rel}: content not shown (${shown.unavailable})`, width, ["dim"], "   "));
      continue;
    }
    const lines = shown.text.split("\n");
    if (lines.at(-1) === "") lines.pop();
    rows.push(
      ...kit.text(`── ${rel} (${lines.length} line${lines.length === 1 ? "" : "s"}) ──`, width, ["bold"], "   "),
    );
    if (hash !== null && shown.hash !== hash) {
      rows.push(...kit.text("   it changed since its hash was taken: r reloads", width, ["red", "bold"]));
    }
    const digits = String(Math.min(lines.length, CONTENT_LINES_MAX)).length;
    for (const [i, line] of lines.slice(0, CONTENT_LINES_MAX).entries()) {
      rows.push(...kit.text(`${String(i + 1).padStart(digits)}  ${line}`, width, [], " ".repeat(digits + 2)));
    }
    if (lines.length > CONTENT_LINES_MAX) {
      rows.push(
        ...kit.text(`… ${lines.length - CONTENT_LINES_MAX} more lines (the whole file is pinned)`, width, ["dim"]),
      );
    }
  }
  return rows;
}
