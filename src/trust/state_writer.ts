/**
 * The writer of trust state in the user `config.toml` (§3.3, §2.3): `[hooks.state."<key>"]` tables
 * and `[projects."<dir>"] trust_level`.
 *
 * Three promises, each load-bearing for a file the user edits by hand:
 *
 * - **Format preserving.** Edits are byte splices into the original text: only the lines of the
 *   touched table change; every comment, blank line, key order, quoting style and line ending
 *   (CRLF stays CRLF) elsewhere is kept byte for byte. A small TOML layout scanner finds where
 *   tables and keys sit; every result is then re-parsed and compared, value by value, with the
 *   intended document, so a scanner mistake can only ever refuse a write, never corrupt a file.
 * - **Atomic.** The new text goes to a sibling temp file that is fsynced and renamed over the
 *   target, so a reader (or a crash, even `kill -9`) sees the old file or the new one, never a torn
 *   one. The original file mode is kept.
 * - **Serialized.** Writers take an exclusive `flock` on the sibling `<file>.lock` of the file they
 *   really write (a symlinked `config.toml` is written through: its target, and the lock beside
 *   it, so writers reaching it through different links share one lock) and re-read the file under
 *   it, so concurrent writers in separate processes lose nothing. A lock path that is not a regular
 *   file (a FIFO, a directory, a symlink someone planted) is refused.
 *
 * A file that does not parse is never touched: the caller gets a one-line `parse` error with line
 * and column.
 *
 * Why not `toml_edit` (the `@rainbowatcher/toml-edit-js` 0.6 wasm build), tried first: its `edit`
 * rewrites every CRLF of the file as LF; its path syntax has no escapes, so a key containing `"`
 * is silently written as a different key; it cannot edit inside inline tables; it adds empty
 * `[hooks]` / `[hooks.state]` headers when creating a table and creates parent tables even when
 * asked to remove a key that is not there; and loading it costs about 70 ms (module plus wasm
 * compile) and read access to the package's `.wasm` file. Splicing avoids all of that.
 *
 * @module
 */

import { parse as parseToml } from "smol-toml";
import { MAX_NESTING, TOO_DEEP, tooDeepPath } from "../util/nesting.ts";
import { atomicTempPath } from "../util/paths.ts";

/** Why a state write failed: the file (or the edit's result) is not valid TOML or has a shape the
 * writer will not edit (`parse`), or the file system refused (`io`). */
export type StateWriteError = { kind: "parse"; message: string } | { kind: "io"; message: string };

/** The change for one hook key. `enabled: true` removes the `enabled` key (true is the default),
 * `enabled: false` writes `enabled = false`; `trustedHash: null` removes `trusted_hash` (untrust);
 * `undefined` leaves a field as it is. The two fields are independent. */
export type StatePatch = { enabled?: boolean; trustedHash?: string | null };

/** Outcome of a write: `changed` is false when the file already held the wanted values (nothing
 * was written, and a missing file was not created). */
export type StateWriteResult = { ok: true; changed: boolean } | { ok: false; error: StateWriteError };

/** Outcome of a pure text edit: the new document text, or why it was refused. */
export type TextEditResult = { ok: true; text: string } | { ok: false; error: StateWriteError };

/** Project trust levels stored under `[projects."<dir>"]` (§2.3). */
export type ProjectTrustLevel = "trusted" | "untrusted";

/** Thrown inside an edit callback to refuse the edit; {@link editTomlFile} returns its message as
 * a `parse` error and leaves the file unchanged. */
export class TomlEditRefusal extends Error {
  /**
   * Creates a refusal.
   *
   * @param message one line saying what was refused and why.
   */
  constructor(message: string) {
    super(message);
    this.name = "TomlEditRefusal";
  }
}

/**
 * Applies patches to the `[hooks.state."<key>"]` tables of the TOML file at `configPath`. The file
 * (and its parent directories) is created when missing and something needs writing. A state table
 * left empty is removed.
 *
 * @param configPath the user `config.toml`.
 * @param patches hook key (§3.1) → change.
 * @returns whether the file changed, or a `parse` / `io` error (file unchanged).
 */
export function writeHookStates(
  configPath: string,
  patches: Map<string, StatePatch>,
): Promise<StateWriteResult> {
  return editTomlFile(
    configPath,
    (text) => unwrap(patchHookStatesText(text, patches)),
  );
}

/**
 * Sets `[projects."<projectDir>"] trust_level` in the TOML file at `configPath`; `level` null
 * removes the key (and the table, when nothing else is in it).
 *
 * @param configPath the user `config.toml`.
 * @param projectDir the project's real absolute path (§2.3); used verbatim as the key.
 * @param level the new trust level, or null to forget it.
 * @returns whether the file changed, or a `parse` / `io` error (file unchanged).
 */
export function writeProjectTrust(
  configPath: string,
  projectDir: string,
  level: ProjectTrustLevel | null,
): Promise<StateWriteResult> {
  return editTomlFile(
    configPath,
    (text) => unwrap(patchProjectTrustText(text, projectDir, level)),
  );
}

/**
 * Edits a TOML document under the writer lock, atomically. Under the lock the file is re-read; a
 * missing file reads as `""`; a file that is not UTF-8 or not valid TOML is refused. `edit` gets
 * the current text and returns the new one; it may throw (for instance a {@link TomlEditRefusal})
 * to refuse, which becomes a `parse` error. A result that is not valid TOML is not written.
 *
 * @param configPath the file to edit; its parent directories are created when missing.
 * @param edit pure function from the current text to the wanted text.
 * @returns whether the file changed, or a `parse` / `io` error (file unchanged).
 */
export async function editTomlFile(
  configPath: string,
  edit: (text: string) => string,
): Promise<StateWriteResult> {
  try {
    await Deno.mkdir(dirname(configPath), { recursive: true });
  } catch (e) {
    return ioError(`cannot create ${dirname(configPath)}`, e);
  }
  // The link may be re-pointed between resolving it and holding the lock: resolve again under the
  // lock, and start over (a few times) if it now leads elsewhere.
  for (let attempt = 0; attempt < RELINK_ATTEMPTS; attempt++) {
    const target = await writeTarget(configPath);
    if (typeof target !== "string") return target;
    const lock = await openLock(`${target}.lock`);
    if (!(lock instanceof Deno.FsFile)) return lock;
    try {
      try {
        await lock.lock(true);
      } catch (e) {
        return ioError(`cannot lock ${target}.lock`, e);
      }
      if ((await writeTarget(configPath)) === target) return await editLocked(target, edit);
    } finally {
      // Closing the descriptor releases the flock as well; unlock first so the release does not
      // depend on when the runtime actually closes it.
      try {
        await lock.unlock();
      } catch { /* closing below releases it anyway */ }
      lock.close();
    }
  }
  return { ok: false, error: { kind: "io", message: `${configPath} keeps being re-linked; not written, try again` } };
}

/** How often {@link editTomlFile} starts over when the config's symlink changes under it. */
const RELINK_ATTEMPTS = 3;

/** The file a write of `configPath` really replaces: its real path (a symlinked config is written
 * through, the link stays), or `configPath` itself when it does not exist yet. */
async function writeTarget(configPath: string): Promise<string | StateWriteResult> {
  try {
    return await Deno.realPath(configPath);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return configPath;
    return ioError(`cannot resolve ${configPath}`, e);
  }
}

/** Opens (creating) the lock file; a path that exists as anything but a regular file is refused:
 * opening a planted FIFO would block forever, and a symlink would lead the lock (and its creation)
 * elsewhere. */
async function openLock(path: string): Promise<Deno.FsFile | StateWriteResult> {
  try {
    const info = await Deno.lstat(path);
    if (!info.isFile) {
      return { ok: false, error: { kind: "io", message: `${path} is not a regular file; refusing it as the lock` } };
    }
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) return ioError(`cannot open lock file ${path}`, e);
  }
  try {
    return await Deno.open(path, { read: true, write: true, create: true });
  } catch (e) {
    return ioError(`cannot open lock file ${path}`, e);
  }
}

/**
 * Pure form of {@link writeHookStates}: applies the patches to a document text.
 *
 * @param text the current `config.toml` text (`""` for none).
 * @param patches hook key → change.
 * @returns the new text (identical when nothing changes) or a `parse` error.
 */
export function patchHookStatesText(text: string, patches: Map<string, StatePatch>): TextEditResult {
  const ops: FieldOp[] = [];
  for (const [key, patch] of patches) {
    const table = ["hooks", "state", key];
    if (patch.enabled !== undefined) {
      // `enabled` defaults to true: enabling removes the key, so disable-then-enable restores the
      // file the user had, and an empty state table disappears.
      ops.push({ table, field: "enabled", value: patch.enabled ? undefined : false });
    }
    if (patch.trustedHash !== undefined) {
      ops.push({ table, field: "trusted_hash", value: patch.trustedHash ?? undefined });
    }
  }
  return applyOps(text, ops);
}

/**
 * Pure form of {@link writeProjectTrust}.
 *
 * @param text the current `config.toml` text (`""` for none).
 * @param projectDir the project key.
 * @param level the new level, or null to remove it.
 * @returns the new text or a `parse` error.
 */
export function patchProjectTrustText(
  text: string,
  projectDir: string,
  level: ProjectTrustLevel | null,
): TextEditResult {
  return applyOps(text, [{ table: ["projects", projectDir], field: "trust_level", value: level ?? undefined }]);
}

// ---------------------------------------------------------------------------------------------
// File handling
// ---------------------------------------------------------------------------------------------

/** Temp files of a writer killed mid-write are removed by a later writer once they are this old;
 * the age (on top of holding the lock) keeps a writer from deleting a temp file that another
 * writer, reaching the same file through a differently spelled path, is still filling. */
const STALE_TEMP_MS = 60_000;

/** Mode of a newly created config: it holds trust decisions and may hold MCP credentials. */
const NEW_FILE_MODE = 0o600;

/** The edit itself, under the lock; `target` is the resolved file (see {@link writeTarget}). */
async function editLocked(target: string, edit: (text: string) => string): Promise<StateWriteResult> {
  let bytes: Uint8Array | null = null;
  let info: Deno.FileInfo | null = null;
  try {
    info = await Deno.stat(target);
    // Reading a FIFO would block forever, a device would never end: only a regular file is edited.
    if (!info.isFile) {
      return { ok: false, error: { kind: "io", message: `${target} is not a regular file (file unchanged)` } };
    }
    bytes = await Deno.readFile(target);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) return ioError(`cannot read ${target}`, e);
  }

  let text = "";
  if (bytes !== null) {
    try {
      // ignoreBOM keeps a leading BOM in the text, so it is written back unchanged.
      text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
    } catch {
      return parseError(`${target} is not valid UTF-8; refusing to edit it (file unchanged)`);
    }
  }
  const before = checkToml(text);
  if (before !== null) return parseError(`${target} ${before}; refusing to edit it (file unchanged)`);

  let next: string;
  try {
    next = edit(text);
  } catch (e) {
    return parseError(`cannot edit ${target}: ${errorText(e)} (file unchanged)`);
  }
  if (next === text) return { ok: true, changed: false };
  const after = checkToml(next);
  if (after !== null) return parseError(`edit of ${target} would produce invalid TOML (${after}); not written`);

  try {
    await removeStaleTemps(target);
    await writeAtomic(target, new TextEncoder().encode(next), info);
  } catch (e) {
    return ioError(`cannot write ${target}`, e);
  }
  return { ok: true, changed: true };
}

/** Writes a sibling temp file, fsyncs it, then renames it over `target` (atomic on POSIX and on
 * Windows' replace-rename), so no reader or crash ever sees a partial file. */
async function writeAtomic(target: string, data: Uint8Array, info: Deno.FileInfo | null): Promise<void> {
  const dir = dirname(target);
  const tmp = atomicTempPath(target, Deno.pid);
  // We hold the lock, so a temp file of this name is a leftover of an earlier writer with our pid.
  await bestEffort(() => Deno.remove(tmp));
  const mode = info?.mode != null ? info.mode & 0o7777 : NEW_FILE_MODE;
  const file = await Deno.open(tmp, { write: true, createNew: true, mode });
  try {
    try {
      let off = 0;
      while (off < data.length) off += await file.write(data.subarray(off));
      await file.sync();
    } finally {
      file.close();
    }
    // `mode` at creation is filtered by the umask: set it exactly.
    await bestEffort(() => Deno.chmod(tmp, mode));
    if (info?.uid != null && info.gid != null) {
      // Keeps ownership when root edits a user's file; fails harmlessly otherwise.
      const { uid, gid } = info;
      await bestEffort(() => Deno.chown(tmp, uid, gid));
    }
    await Deno.rename(tmp, target);
  } catch (e) {
    await bestEffort(() => Deno.remove(tmp));
    throw e;
  }
  // Make the rename itself durable. Directories cannot be opened on every platform: best effort.
  await bestEffort(async () => {
    const d = await Deno.open(dir, { read: true });
    try {
      await d.sync();
    } finally {
      d.close();
    }
  });
}

/** Removes temp files left by writers that died before their rename (we hold the lock). */
async function removeStaleTemps(target: string): Promise<void> {
  const dir = dirname(target);
  const prefix = `.${basename(target)}.`;
  const now = Date.now();
  await bestEffort(async () => {
    for await (const entry of Deno.readDir(dir)) {
      if (!entry.isFile || !entry.name.startsWith(prefix) || !entry.name.endsWith(".tmp")) continue;
      // Only names this writer makes: `.<base>.<pid>.tmp` (and `.<base>.<pid>.<hex>.tmp` of older versions).
      if (!/^\d+(\.[0-9a-f]+)?$/.test(entry.name.slice(prefix.length, -".tmp".length))) continue;
      const path = join(dir, entry.name);
      await bestEffort(async () => {
        const st = await Deno.stat(path);
        if (st.mtime !== null && now - st.mtime.getTime() > STALE_TEMP_MS) {
          await Deno.remove(path);
        }
      });
    }
  });
}

// Tiny path helpers: `node:path` costs 10-30 ms to load, too much for a CLI start.

/** The directory part of a file path (`/` and, on Windows, `\` separators). */
function dirname(path: string): string {
  const i = lastSeparator(path);
  if (i < 0) return ".";
  if (i === 0) return path[0];
  // `C:\config.toml` lives in `C:\`, not in `C:` (the drive's current directory).
  return path[i - 1] === ":" ? path.slice(0, i + 1) : path.slice(0, i);
}

function basename(path: string): string {
  return path.slice(lastSeparator(path) + 1);
}

function join(dir: string, name: string): string {
  return /[\\/]$/.test(dir) ? dir + name : `${dir}/${name}`;
}

function lastSeparator(path: string): number {
  const slash = path.lastIndexOf("/");
  return Deno.build.os === "windows" ? Math.max(slash, path.lastIndexOf("\\")) : slash;
}

async function bestEffort(f: () => Promise<unknown>): Promise<void> {
  try {
    await f();
  } catch { /* optional step; the write is correct without it */ }
}

function ioError(what: string, e: unknown): StateWriteResult {
  return { ok: false, error: { kind: "io", message: `${what}: ${errorText(e)}` } };
}

function parseError(message: string): StateWriteResult {
  return { ok: false, error: { kind: "parse", message } };
}

function errorText(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split("\n")[0];
}

/** Null when `text` is valid TOML, else "does not parse at line L, column C: reason". */
function checkToml(text: string): string | null {
  try {
    // The bound discovery reads with (SPEC §15): a file it refuses is not edited either.
    if (tooDeepPath(parseToml(text, { maxDepth: MAX_NESTING }))) return TOO_DEEP;
    return null;
  } catch (e) {
    return describeParseError(e);
  }
}

function describeParseError(e: unknown): string {
  const reason = errorText(e).replace(/^Invalid TOML document:\s*/, "");
  const { line, column } = (e ?? {}) as { line?: unknown; column?: unknown };
  if (typeof line === "number" && typeof column === "number") {
    return `does not parse at line ${line}, column ${column}: ${reason}`;
  }
  return `does not parse: ${reason}`;
}

function unwrap(r: TextEditResult): string {
  if (!r.ok) throw new TomlEditRefusal(r.error.message);
  return r.text;
}

// ---------------------------------------------------------------------------------------------
// Text edits
//
// One scan of the document splits it into chunks, one per table header (plus the lines before
// the first header). Each change only ever touches the chunk of its own table (or, for a new
// table, the chunk it is inserted after), so a patch of 1,000 keys costs one scan of the file plus
// small per-table work, and every other chunk is copied through untouched.
// ---------------------------------------------------------------------------------------------

/** Set (`value` defined) or remove (`undefined`) `field` of the table at path `table`. */
type FieldOp = { table: string[]; field: string; value: boolean | string | undefined };

/** A header's lines up to the next header (or the lines before the first header). */
type Chunk = {
  header: HeaderItem | undefined;
  text: string;
  /** Its table became empty: the header is gone, `text` holds the lines kept after it. */
  removed: boolean;
  /** New tables to insert after this chunk's own keys, in order. */
  newTables: string[][];
};

function applyOps(text: string, ops: FieldOp[]): TextEditResult {
  let current: Record<string, unknown>;
  try {
    current = parseToml(text) as Record<string, unknown>;
  } catch (e) {
    return refused(`document ${describeParseError(e)}`);
  }
  // Skip ops that change nothing, so a no-op never trips over a layout the splicer refuses (say,
  // enabling a hook whose state sits in an inline table and was never disabled).
  const needed = ops.filter((op) => lookup(current, [...op.table, op.field]) !== op.value);
  if (needed.length === 0) return { ok: true, text };
  try {
    const next = spliceOps(text, needed);
    verifyEdit(current, next, needed);
    return { ok: true, text: next };
  } catch (e) {
    return refused(errorText(e));
  }
}

function lookup(root: unknown, path: string[]): unknown {
  let cur = root;
  for (const k of path) {
    if (!isPlainTable(cur) || !Object.hasOwn(cur, k)) return undefined;
    cur = cur[k];
  }
  return cur;
}

function refused(message: string): TextEditResult {
  return { ok: false, error: { kind: "parse", message } };
}

function spliceOps(text: string, ops: FieldOp[]): string {
  const doc = scanToml(text);
  const index = indexDoc(doc);
  for (const op of ops) assertEditable(doc, index, op.table, [...op.table, op.field]);

  // Chunks, and which chunk holds each key line.
  const chunks: Chunk[] = [];
  const chunkOfHeader = new Map<string, Chunk>();
  const chunkOfKv = new Map<KvItem, Chunk>();
  let current: Chunk = { header: undefined, text: "", removed: false, newTables: [] };
  let from = 0;
  chunks.push(current);
  for (const item of doc.items) {
    if (item.kind === "header") {
      current.text = text.slice(from, item.start);
      from = item.start;
      current = { header: item, text: "", removed: false, newTables: [] };
      chunks.push(current);
      if (!item.array) chunkOfHeader.set(pathId(item.path), current);
    } else if (item.kind === "kv") {
      chunkOfKv.set(item, current);
    }
  }
  current.text = text.slice(from);

  // Group the ops by table, keeping their order (enabled before trusted_hash).
  const groups = new Map<string, FieldOp[]>();
  for (const op of ops) {
    const id = pathId(op.table);
    groups.set(id, [...(groups.get(id) ?? []), op]);
  }

  const creations: FieldOp[][] = [];
  for (const [id, group] of groups) {
    const own = chunkOfHeader.get(id);
    const lastDotted = index.lastDottedUnder.get(id);
    if (own !== undefined) {
      for (const op of group) own.text = applyFieldOp(own.text, op, doc.eol);
      const left = scanToml(own.text);
      // An emptied table goes, unless comments belong to it (on its header line or right under
      // it): then the header stays with them, as an empty table (SPEC §3.3: every comment is kept).
      if (!index.headerUnder.has(id) && left.kvs.length === 0 && !hasOwnComments(left)) {
        own.removed = true;
        own.text = textAfterHeader(own.text);
      }
    } else if (lastDotted !== undefined) {
      const chunk = chunkOfKv.get(lastDotted)!;
      for (const op of group) chunk.text = applyFieldOp(chunk.text, op, doc.eol);
    } else {
      // Nothing to remove from a table that does not exist.
      const block = group.filter((op) => op.value !== undefined);
      if (block.length > 0) creations.push(block);
    }
  }

  // New tables: after the last table of the same parent (state tables stay together), else after
  // the last table under a shorter common prefix (a first state table lands after the other
  // `[hooks…]` tables), else at the end of the file.
  const atEnd: string[][] = [];
  for (const group of creations) {
    const table = group[0].table;
    const lines = [`[${tomlKeyPath(table)}]`, ...group.map((op) => `${op.field} = ${tomlValue(op.value!)}`)];
    let anchor: Chunk | undefined;
    for (let n = table.length - 1; n >= 1 && anchor === undefined; n--) {
      const prefix = table.slice(0, n);
      anchor = chunks.findLast((c) => !c.removed && c.header !== undefined && startsWith(c.header.path, prefix));
    }
    if (anchor !== undefined) anchor.newTables.push(lines);
    else atEnd.push(lines);
  }
  for (const chunk of chunks) {
    if (chunk.newTables.length > 0) {
      chunk.text = insertBlocks(chunk.text, sectionEnd(scanToml(chunk.text)), chunk.newTables, doc.eol);
    }
  }
  const last = chunks[chunks.length - 1];
  if (atEnd.length > 0) last.text = insertBlocks(last.text, last.text.length, atEnd, doc.eol);

  return assemble(chunks);
}

/** Joins the chunks; where a table was removed, does not leave two blank lines (or a leading or
 * trailing blank line) behind. */
function assemble(chunks: Chunk[]): string {
  let out = "";
  for (const [i, chunk] of chunks.entries()) {
    let piece = chunk.text;
    if (chunk.removed) {
      const atStart = out.replace(/^\uFEFF/, "").length === 0;
      const nextBlankOrEnd = piece.length > 0 ? isBlankLineAt(piece, 0) : i === chunks.length - 1;
      if (!atStart && endsWithBlankLine(out) && nextBlankOrEnd) {
        out = out.slice(0, lastLineStart(out));
      } else if (atStart && piece.length > 0 && isBlankLineAt(piece, 0)) {
        piece = piece.slice(lineEndAt(piece, 0));
      }
    }
    out += piece;
  }
  return out;
}

/** Whether a table's chunk holds comments of its own: on the header line, or in the lines right
 * under it (before the first blank line; comments after a blank line introduce what follows). */
function hasOwnComments(chunk: ScannedDoc): boolean {
  const header = chunk.items.findIndex((i) => i.kind === "header");
  if (header < 0) return false;
  if ((chunk.items[header] as HeaderItem).comment !== null) return true;
  for (const item of chunk.items.slice(header + 1)) {
    if (item.kind === "comment") return true;
    if (item.kind === "blank") return false;
  }
  return false;
}

/** The chunk of a removed table without its header line (which holds no comment: see
 * {@link hasOwnComments}). */
function textAfterHeader(chunkText: string): string {
  const header = scanToml(chunkText).items.find((i) => i.kind === "header");
  return header === undefined ? chunkText : chunkText.slice(header.end);
}

/** Sets or removes one field inside a chunk that holds its table (as a header or dotted keys). */
function applyFieldOp(text: string, op: FieldOp, eol: string): string {
  const doc = scanToml(text);
  const full = [...op.table, op.field];
  const existing = doc.kvs.filter((kv) => !kv.inArrayTable && samePath(kv.path, full));
  if (op.value === undefined) {
    // Delete bottom-up so earlier offsets stay valid (TOML allows only one, but be safe). A comment
    // ending the removed line stays, on a line of its own (SPEC §3.3: every comment is kept).
    for (const kv of existing.reverse()) {
      const line = text.slice(kv.start, kv.end);
      const kept = kv.comment === null ? "" : kv.indent + kv.comment + (line.endsWith("\n") ? eol : "");
      text = text.slice(0, kv.start) + kept + text.slice(kv.end);
    }
    return text;
  }
  const literal = tomlValue(op.value);
  if (existing.length > 0) {
    // Replace only the value: the key's spelling, spacing and trailing comment stay.
    const kv = existing[0];
    return text.slice(0, kv.valueStart) + literal + text.slice(kv.valueEnd);
  }

  const header = doc.headers.find((h) => !h.array && samePath(h.path, op.table));
  if (header !== undefined) {
    const body = doc.kvs;
    // Keep the spec's field order (enabled before trusted_hash) when both end up present.
    const hash = op.field === "enabled" ? body.find((kv) => samePath(kv.rel, ["trusted_hash"])) : undefined;
    if (hash !== undefined) return insertLine(text, hash.start, `${hash.indent}${op.field} = ${literal}`, eol);
    const last = body.at(-1);
    return insertLine(text, last?.end ?? header.end, `${last?.indent ?? ""}${op.field} = ${literal}`, eol);
  }

  // The table exists only through dotted keys (`state."k".enabled = false` under `[hooks]`):
  // add a dotted key next to its siblings, spelled relative to their section.
  const dotted = doc.kvs.filter((kv) =>
    !kv.inArrayTable && startsWith(kv.path, op.table) && kv.path.length > op.table.length
  );
  const lastDotted = dotted.at(-1);
  if (lastDotted === undefined) throw new TomlEditRefusal(`internal error: ${tomlKeyPath(op.table)} not found`);
  const rel = full.slice(lastDotted.path.length - lastDotted.rel.length);
  return insertLine(text, lastDotted.end, `${lastDotted.indent}${tomlKeyPath(rel)} = ${literal}`, eol);
}

/** Lookups over one scan, so that checking 1,000 ops does not rescan the document. */
type DocIndex = {
  /** Key line by its full path. */
  kvAt: Map<string, KvItem>;
  /** Some key line strictly under a path. */
  kvUnder: Map<string, KvItem>;
  /** Last key line whose dotted key (not its section header) passes through a path: the table at
   * that path is written with dotted keys in that line's section. */
  lastDottedUnder: Map<string, KvItem>;
  /** Array-of-tables header by its path. */
  arrayAt: Map<string, HeaderItem>;
  /** A header at or under a path. */
  headerAtOrUnder: Map<string, HeaderItem>;
  /** Paths that have a header strictly under them. */
  headerUnder: Set<string>;
};

function indexDoc(doc: ScannedDoc): DocIndex {
  const index: DocIndex = {
    kvAt: new Map(),
    kvUnder: new Map(),
    lastDottedUnder: new Map(),
    arrayAt: new Map(),
    headerAtOrUnder: new Map(),
    headerUnder: new Set(),
  };
  for (const kv of doc.kvs) {
    if (kv.inArrayTable) continue;
    index.kvAt.set(pathId(kv.path), kv);
    const sectionLength = kv.path.length - kv.rel.length;
    for (let n = 1; n < kv.path.length; n++) {
      const id = pathId(kv.path.slice(0, n));
      index.kvUnder.set(id, kv);
      if (n > sectionLength) index.lastDottedUnder.set(id, kv);
    }
  }
  for (const h of doc.headers) {
    if (h.array) index.arrayAt.set(pathId(h.path), h);
    for (let n = 1; n <= h.path.length; n++) {
      const id = pathId(h.path.slice(0, n));
      if (!index.headerAtOrUnder.has(id)) index.headerAtOrUnder.set(id, h);
      if (n < h.path.length) index.headerUnder.add(id);
    }
  }
  return index;
}

/** Refuses shapes that a splice cannot edit safely: the table (or a parent) written as an inline
 * table or another value, or inside an array of tables; or the field itself being a table. */
function assertEditable(doc: ScannedDoc, index: DocIndex, table: string[], full: string[]): void {
  for (let n = 1; n <= table.length; n++) {
    const prefix = table.slice(0, n);
    const kv = index.kvAt.get(pathId(prefix));
    if (kv !== undefined) {
      throw new TomlEditRefusal(
        `${tomlKeyPath(kv.path)} is written as an inline value at line ${doc.lineOf(kv.start)}; ` +
          `rewrite it as [${tomlKeyPath(table)}] tables to let mind-hooks edit it`,
      );
    }
    const h = index.arrayAt.get(pathId(prefix));
    if (h !== undefined) {
      throw new TomlEditRefusal(
        `${tomlKeyPath(h.path)} is an array of tables (line ${doc.lineOf(h.start)}); cannot edit ${tomlKeyPath(table)}`,
      );
    }
  }
  const under = index.kvUnder.get(pathId(full)) ?? index.headerAtOrUnder.get(pathId(full));
  if (under !== undefined) {
    throw new TomlEditRefusal(`${tomlKeyPath(full)} is a table (line ${doc.lineOf(under.start)}), expected a value`);
  }
}

/** Re-parses the result and checks that the only difference from the original values is the
 * intended one: the last line of defence against a scanner mistake (a refused write beats a
 * corrupted config). `expected` (the original's values) is consumed. */
function verifyEdit(expected: Record<string, unknown>, newText: string, ops: FieldOp[]): void {
  let actual: Record<string, unknown>;
  try {
    actual = parseToml(newText) as Record<string, unknown>;
  } catch (e) {
    throw new TomlEditRefusal(`internal error: the edited document ${describeParseError(e)}; not written`);
  }
  for (const op of ops) {
    const t = walkCreate(expected, op.table);
    if (op.value === undefined) delete t[op.field];
    else t[op.field] = op.value;
  }
  const tables = ops.map((op) => op.table);
  pruneEmpty(expected, tables);
  pruneEmpty(actual, tables);
  if (!deepEqual(expected, actual)) {
    throw new TomlEditRefusal("internal error: the edit would change other values of the file; not written");
  }
}

function walkCreate(root: Record<string, unknown>, path: string[]): Record<string, unknown> {
  let cur = root;
  for (const k of path) {
    // Prototype-free, like the parser's tables, so no key is special.
    if (!isPlainTable(cur[k])) cur[k] = Object.create(null);
    cur = cur[k] as Record<string, unknown>;
  }
  return cur;
}

/** Drops empty tables along the given paths, deepest first: empty tables carry no data, and
 * whether an emptied `[hooks.state]` parent survives is a layout matter, not a value change. Each
 * path is checked once (`hooks.state` may hold thousands of keys). */
function pruneEmpty(root: Record<string, unknown>, tables: string[][]): void {
  const paths = new Map<string, string[]>();
  for (const t of tables) {
    for (let n = 1; n <= t.length; n++) paths.set(pathId(t.slice(0, n)), t.slice(0, n));
  }
  for (const path of [...paths.values()].sort((a, b) => b.length - a.length)) {
    const parent = lookup(root, path.slice(0, -1));
    if (!isPlainTable(parent)) continue;
    const leaf = parent[path[path.length - 1]];
    if (isPlainTable(leaf) && isEmpty(leaf)) delete parent[path[path.length - 1]];
  }
}

/** Emptiness without listing the keys (`hooks.state` may hold thousands). */
function isEmpty(table: Record<string, unknown>): boolean {
  for (const _ in table) return false;
  return true;
}

function isPlainTable(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (a instanceof Date || b instanceof Date) {
    return a instanceof Date && b instanceof Date && a.constructor === b.constructor &&
      Object.is(a.getTime(), b.getTime()) && dateText(a) === dateText(b);
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  }
  if (isPlainTable(a) && isPlainTable(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]));
  }
  return false;
}

/** The TOML spelling of a parsed date (offset, local date or local time kept apart). */
function dateText(d: Date): string {
  try {
    return d.toISOString();
  } catch {
    return String(d);
  }
}

function pathId(path: string[]): string {
  return JSON.stringify(path);
}

function samePath(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function startsWith(path: string[], prefix: string[]): boolean {
  return path.length >= prefix.length && prefix.every((x, i) => x === path[i]);
}

/** Where a chunk's own lines end: after its last key (or its header) and the comment lines right
 * under it that a blank line closes (they belong to the table), before the blank lines and the
 * comments that lead into the next table. */
function sectionEnd(doc: ScannedDoc): number {
  const last = doc.kvs.at(-1) ?? doc.headers[0];
  if (last === undefined) return doc.items.at(-1)?.end ?? 0;
  let end = last.end;
  let trailing = end;
  for (const item of doc.items.slice(doc.items.indexOf(last) + 1)) {
    if (item.kind === "comment") trailing = item.end;
    else {
      if (item.kind === "blank") end = trailing;
      break;
    }
  }
  return end;
}

/** Inserts one line (given without line ending) at a line boundary. At the end of a file that has
 * no final newline, the file keeps having none. */
function insertLine(text: string, at: number, line: string, eol: string): string {
  if (at >= text.length && text.length > 0 && !text.endsWith("\n")) return text + eol + line;
  return text.slice(0, at) + line + eol + text.slice(at);
}

/** Inserts new tables (each a list of lines) at a line boundary, each separated from what
 * precedes it by one blank line. At the end of a file that has no final newline, the file keeps
 * having none. */
function insertBlocks(text: string, at: number, blocks: string[][], eol: string): string {
  const before = text.slice(0, at);
  const after = text.slice(at);
  let lead = "";
  if (before.replace(/^\uFEFF/, "").length > 0) {
    if (!before.endsWith("\n")) lead = eol + eol; // end the last line, then a blank line
    else if (!endsWithBlankLine(before)) lead = eol;
  }
  const atEndWithoutEol = after.length === 0 && text.length > 0 && !text.endsWith("\n");
  const body = blocks.map((lines) => lines.join(eol)).join(eol + eol);
  return before + lead + body + (atEndWithoutEol ? "" : eol) + after;
}

/** Start of the last line of `text` (which ends with a line ending). */
function lastLineStart(text: string): number {
  return text.length < 2 ? 0 : text.lastIndexOf("\n", text.length - 2) + 1;
}

/** Whether the last (complete) line of `text` is blank; only that line is looked at. */
function endsWithBlankLine(text: string): boolean {
  if (!text.endsWith("\n")) return false;
  return /^[ \t]*\r?\n$/.test(text.slice(lastLineStart(text)));
}

function isBlankLineAt(text: string, at: number): boolean {
  return /^[ \t]*(?:\r?\n|$)/.test(text.slice(at, at + 4096)) && lineEndAt(text, at) > at;
}

function lineEndAt(text: string, at: number): number {
  const nl = text.indexOf("\n", at);
  return nl < 0 ? text.length : nl + 1;
}

// ---------------------------------------------------------------------------------------------
// TOML spelling
// ---------------------------------------------------------------------------------------------

const BARE_KEY = /^[A-Za-z0-9_-]+$/;

/** A dotted key path as TOML spells it: bare segments where allowed, else basic strings. */
export function tomlKeyPath(path: string[]): string {
  return path.map((k) => (BARE_KEY.test(k) ? k : tomlString(k))).join(".");
}

function tomlValue(v: boolean | string): string {
  return typeof v === "boolean" ? String(v) : tomlString(v);
}

/** A TOML basic string; control characters, quotes and backslashes escaped. */
function tomlString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === "\\") out += "\\\\";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (ch === "\b") out += "\\b";
    else if (ch === "\f") out += "\\f";
    else if (c < 0x20 || c === 0x7f) {
      out += `\\u${c.toString(16).padStart(4, "0")}`;
    } else out += ch;
  }
  return out + '"';
}

// ---------------------------------------------------------------------------------------------
// Layout scanner: where headers, key/value lines and values sit in the text. It decodes keys but
// only skips over values; the text it reads has already been validated by the TOML parser.
// ---------------------------------------------------------------------------------------------

type HeaderItem = {
  kind: "header";
  path: string[];
  array: boolean;
  start: number;
  end: number;
  /** The comment ending the header line (from its `#`, without the line ending), or null. */
  comment: string | null;
};
type KvItem = {
  kind: "kv";
  /** Full key path (section header + dotted key). */
  path: string[];
  /** Key path as written on the line. */
  rel: string[];
  /** Inside an `[[array.of.tables]]` section: its path is not addressable by name. */
  inArrayTable: boolean;
  /** The line, from its first byte to just after its line ending. */
  start: number;
  end: number;
  valueStart: number;
  valueEnd: number;
  indent: string;
  /** The comment ending the line (from its `#`, without the line ending), or null. */
  comment: string | null;
};
type TriviaItem = { kind: "blank" | "comment"; start: number; end: number };
type Item = HeaderItem | KvItem | TriviaItem;

type ScannedDoc = {
  items: Item[];
  headers: HeaderItem[];
  kvs: KvItem[];
  /** Line ending for inserted lines: the file's own (its first line ending decides). */
  eol: string;
  lineOf(offset: number): number;
};

function scanToml(text: string): ScannedDoc {
  const items = new Scanner(text).scan();
  const firstNl = text.indexOf("\n");
  return {
    items,
    headers: items.filter((i): i is HeaderItem => i.kind === "header"),
    kvs: items.filter((i): i is KvItem => i.kind === "kv"),
    eol: firstNl > 0 && text[firstNl - 1] === "\r" ? "\r\n" : "\n",
    lineOf: (offset) => text.slice(0, offset).split("\n").length,
  };
}

/** Sticky patterns: matched in place, no slicing of the text. */
const BARE_RUN = /[A-Za-z0-9_-]+/y;
const SCALAR_RUN = /[A-Za-z0-9_+\-.:]+/y;

const SIMPLE_ESCAPES: Record<string, string> = {
  b: "\b",
  t: "\t",
  n: "\n",
  f: "\f",
  r: "\r",
  e: "\x1b",
  '"': '"',
  "\\": "\\",
};

class Scanner {
  pos = 0;
  constructor(private readonly text: string) {}

  scan(): Item[] {
    const t = this.text;
    const items: Item[] = [];
    let section: string[] = [];
    let inArrayTable = false;
    const arrayPaths: string[][] = [];
    if (t.startsWith("\uFEFF")) this.pos = 1;
    while (this.pos < t.length) {
      const start = this.pos;
      this.skipWs();
      if (this.pos >= t.length) {
        items.push({ kind: "blank", start, end: this.pos });
        break;
      }
      const c = t[this.pos];
      if (this.eatEol()) {
        items.push({ kind: "blank", start, end: this.pos });
      } else if (c === "#") {
        this.skipComment();
        this.endLine();
        items.push({ kind: "comment", start, end: this.pos });
      } else if (c === "[") {
        const array = t[this.pos + 1] === "[";
        this.pos += array ? 2 : 1;
        const path = this.key();
        this.expect("]");
        if (array) this.expect("]");
        const comment = this.finishLine();
        items.push({ kind: "header", path, array, start, end: this.pos, comment });
        section = path;
        // `[a.b.c]` after `[[a.b]]` is a table inside the array's last element.
        inArrayTable = array || arrayPaths.some((p) => startsWith(path, p));
        if (array) arrayPaths.push(path);
      } else {
        const keyStart = this.pos;
        const rel = this.key();
        this.expect("=");
        this.skipWs();
        const valueStart = this.pos;
        this.value();
        const valueEnd = this.pos;
        const comment = this.finishLine();
        items.push({
          kind: "kv",
          path: [...section, ...rel],
          rel,
          inArrayTable,
          start,
          end: this.pos,
          valueStart,
          valueEnd,
          indent: t.slice(start, keyStart),
          comment,
        });
      }
    }
    return items;
  }

  private fail(what: string): never {
    const line = this.text.slice(0, this.pos).split("\n").length;
    throw new TomlEditRefusal(
      `unsupported TOML layout at line ${line}: ${what}`,
    );
  }

  private expect(ch: string): void {
    this.skipWs();
    if (this.text[this.pos] !== ch) this.fail(`expected '${ch}'`);
    this.pos++;
  }

  private skipWs(): void {
    while (this.text[this.pos] === " " || this.text[this.pos] === "\t") {
      this.pos++;
    }
  }

  private eatEol(): boolean {
    if (this.text[this.pos] === "\n") {
      this.pos++;
      return true;
    }
    if (this.text[this.pos] === "\r" && this.text[this.pos + 1] === "\n") {
      this.pos += 2;
      return true;
    }
    return false;
  }

  private skipComment(): void {
    const t = this.text;
    while (
      this.pos < t.length && t[this.pos] !== "\n" &&
      !(t[this.pos] === "\r" && t[this.pos + 1] === "\n")
    ) {
      this.pos++;
    }
  }

  private endLine(): void {
    if (!this.eatEol() && this.pos < this.text.length) {
      this.fail("expected end of line");
    }
  }

  /** Rest of a header or key/value line: spaces, an optional comment (returned), the line ending. */
  private finishLine(): string | null {
    this.skipWs();
    let comment: string | null = null;
    if (this.text[this.pos] === "#") {
      const from = this.pos;
      this.skipComment();
      comment = this.text.slice(from, this.pos);
    }
    this.endLine();
    return comment;
  }

  /** Spaces, comments and line endings between array elements (and TOML 1.1 inline tables). */
  private skipInsideBrackets(): void {
    for (;;) {
      this.skipWs();
      if (this.text[this.pos] === "#") this.skipComment();
      if (!this.eatEol()) return;
    }
  }

  /** A dotted key; returns its decoded segments. */
  private key(): string[] {
    const t = this.text;
    const segs: string[] = [];
    for (;;) {
      this.skipWs();
      const c = t[this.pos];
      if (c === '"') segs.push(this.basicString());
      else if (c === "'") segs.push(this.literalString());
      else {
        BARE_RUN.lastIndex = this.pos;
        const m = BARE_RUN.exec(t);
        if (m === null) this.fail("expected a key");
        segs.push(m[0]);
        this.pos += m[0].length;
      }
      this.skipWs();
      if (t[this.pos] !== ".") return segs;
      this.pos++;
    }
  }

  private value(): void {
    const t = this.text;
    const c = t[this.pos];
    if (c === '"') {
      if (t.startsWith('"""', this.pos)) this.multiline('"');
      else this.basicString();
    } else if (c === "'") {
      if (t.startsWith("'''", this.pos)) this.multiline("'");
      else this.literalString();
    } else if (c === "[") {
      this.pos++;
      for (;;) {
        this.skipInsideBrackets();
        if (t[this.pos] === "]") break;
        this.value();
        this.skipInsideBrackets();
        if (t[this.pos] === ",") this.pos++;
        else if (t[this.pos] !== "]") this.fail("expected ',' or ']' in array");
      }
      this.pos++;
    } else if (c === "{") {
      this.pos++;
      for (;;) {
        this.skipInsideBrackets();
        if (t[this.pos] === "}") break;
        this.key();
        this.expect("=");
        this.skipWs();
        this.value();
        this.skipInsideBrackets();
        if (t[this.pos] === ",") this.pos++;
        else if (t[this.pos] !== "}") {
          this.fail("expected ',' or '}' in inline table");
        }
      }
      this.pos++;
    } else {
      // Numbers, booleans, dates and times; a date-time may use a space instead of 'T'.
      const start = this.pos;
      this.scalarChars();
      if (
        /^\d{4}-\d{2}-\d{2}$/.test(t.slice(start, this.pos)) &&
        t[this.pos] === " " &&
        /^\d{2}:/.test(t.slice(this.pos + 1, this.pos + 4))
      ) {
        this.pos++;
        this.scalarChars();
      }
      if (this.pos === start) this.fail("expected a value");
    }
  }

  private scalarChars(): void {
    SCALAR_RUN.lastIndex = this.pos;
    const m = SCALAR_RUN.exec(this.text);
    if (m !== null) this.pos += m[0].length;
  }

  private basicString(): string {
    const t = this.text;
    this.pos++;
    let out = "";
    for (;;) {
      const c = t[this.pos];
      if (c === undefined || c === "\n" || c === "\r") {
        this.fail("unterminated string");
      }
      if (c === '"') {
        this.pos++;
        return out;
      }
      if (c !== "\\") {
        out += c;
        this.pos++;
        continue;
      }
      const e = t[this.pos + 1];
      if (Object.hasOwn(SIMPLE_ESCAPES, e)) {
        out += SIMPLE_ESCAPES[e];
        this.pos += 2;
      } else if (e === "u" || e === "U" || e === "x") {
        const n = e === "u" ? 4 : e === "U" ? 8 : 2;
        const hex = t.slice(this.pos + 2, this.pos + 2 + n);
        if (!/^[0-9A-Fa-f]+$/.test(hex) || hex.length !== n) {
          this.fail("bad escape");
        }
        out += String.fromCodePoint(parseInt(hex, 16));
        this.pos += 2 + n;
      } else {
        this.fail("bad escape");
      }
    }
  }

  private literalString(): string {
    const t = this.text;
    const end = t.indexOf("'", this.pos + 1);
    if (end < 0) this.fail("unterminated string");
    const s = t.slice(this.pos + 1, end);
    if (s.includes("\n")) this.fail("unterminated string");
    this.pos = end + 1;
    return s;
  }

  /** Skips a `"""` or `'''` string; up to two extra quotes next to the closing ones belong to it. */
  private multiline(q: string): void {
    const t = this.text;
    const delim = q.repeat(3);
    this.pos += 3;
    for (;;) {
      if (this.pos >= t.length) this.fail("unterminated multi-line string");
      if (q === '"' && t[this.pos] === "\\") {
        this.pos += 2;
        continue;
      }
      if (t.startsWith(delim, this.pos)) {
        this.pos += 3;
        for (let extra = 0; extra < 2 && t[this.pos] === q; extra++) this.pos++;
        return;
      }
      this.pos++;
    }
  }
}
