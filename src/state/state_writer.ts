/**
 * The writer of trust state in the user `config.toml` (§3.3, §2.3): `[hooks.state."<key>"]` tables
 * and `[projects."<dir>"] trust_level`.
 *
 * Three promises, each load-bearing for a file the user edits by hand:
 *
 * - **Format preserving.** Edits are byte splices into the original text: only the lines of the
 *   touched table change; every comment, blank line, key order, quoting style and line ending
 *   (CRLF stays CRLF) elsewhere is kept byte for byte. Where tables and keys sit comes from the
 *   one TOML syntax tree (src/util/toml_tree.ts); every result is then re-parsed and compared,
 *   value by value, with the intended document, so a layout mistake can only ever refuse a write,
 *   never corrupt a file.
 * - **Atomic.** The new text goes to a sibling temp file that is fsynced and renamed over the
 *   target (src/util/atomic_file.ts), so a reader (or a crash, even `kill -9`) sees the old file
 *   or the new one, never a torn one. The original file mode is kept.
 * - **Serialized.** Writers lock the sibling `<file>.lock` of the file they really write and
 *   re-read it under the lock, so concurrent writers in separate processes lose nothing.
 *
 * A file that does not parse is never touched: the caller gets a one-line `parse` error with line
 * and column.
 *
 * The jobs: locate (`state_layout.ts`: the line layout from the syntax tree), plan
 * (`state_plan.ts`: which fields change, whether a splice may change them, and the checks before
 * and after), splice (`state_splice.ts`: the text edits), and the file (here: the lock, the
 * re-read under it, the atomic replace). Writers take an exclusive `flock` on the sibling
 * `<file>.lock` of the file they really write (a symlinked `config.toml` is written through: its
 * target, and the lock beside it, so writers reaching it through different links share one lock);
 * a lock path that is not a regular file (a FIFO, a directory, a planted symlink) is refused.
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

import { removeStaleTemps, writeFileAtomic } from "../util/atomic_file.ts";
import { atomicTempPath, dirname, writeTargetSync } from "../util/paths.ts";
import { PEOPLE_LOCK_WAIT_MS, withFileLock } from "../util/file_lock.ts";
import { TomlEditRefusal } from "./state_layout.ts";
import {
  applyOps,
  checkToml,
  errorText,
  type FieldOp,
  lookup,
  type StateWriteError,
  type TextEditResult,
} from "./state_plan.ts";
import { parse as parseToml } from "smol-toml";

export { TomlEditRefusal } from "./state_layout.ts";
export type { StateWriteError, TextEditResult } from "./state_plan.ts";
export { tomlKeyPath } from "./state_splice.ts";

/** The change for one hook key. `enabled: true` removes the `enabled` key (true is the default),
 * `enabled: false` writes `enabled = false`; `trustedHash: null` removes `trusted_hash` (untrust);
 * `trustedFiles` sets the inline table `trusted_files = { "rel/path" = "sha256:…" }` (§3.5), null
 * removes it; `unpinnable` sets the construct an unpinnable hook was trusted with (§3.5 r3), null
 * removes it; `undefined` leaves a field as it is. `enabled` and trust are independent. */
export type StatePatch = {
  enabled?: boolean;
  trustedHash?: string | null;
  trustedFiles?: Readonly<Record<string, string>> | null;
  unpinnable?: string | null;
  /** `true` writes `trusted_fail_closed = true` (the trusted definition was `failClosed`, §3.5 r4); null removes it. */
  trustedFailClosed?: true | null;
};

/** Project trust levels stored under `[projects."<dir>"]` (§2.3). */
export type ProjectTrustLevel = "trusted" | "untrusted";

/** Outcome of a write: `changed` is false when the file already held the wanted values (nothing
 * was written, and a missing file was not created). */
export type StateWriteResult = { ok: true; changed: boolean } | { ok: false; error: StateWriteError };

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
    if (patch.trustedFiles !== undefined) {
      ops.push({ table, field: "trusted_files", value: patch.trustedFiles ?? undefined });
    }
    if (patch.unpinnable !== undefined) {
      ops.push({ table, field: "unpinnable", value: patch.unpinnable ?? undefined });
    }
    if (patch.trustedFailClosed !== undefined) {
      ops.push({ table, field: "trusted_fail_closed", value: patch.trustedFailClosed ?? undefined });
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

/**
 * Removes the tables at `tables` (`["hooks", "state", key]`, `["projects", dir]`) from the TOML
 * file at `configPath`: every field of each, so the table goes (`mind-hooks prune`). A table that
 * is not there is skipped; one holding a sub-table is refused, like any shape a splice cannot edit.
 *
 * @returns whether the file changed, or a `parse` / `io` error (file unchanged).
 */
export function removeStateTables(configPath: string, tables: string[][]): Promise<StateWriteResult> {
  return editTomlFile(configPath, (text) => unwrap(removeTablesText(text, tables)));
}

/** Pure form of {@link removeStateTables}. */
export function removeTablesText(text: string, tables: string[][]): TextEditResult {
  let doc: unknown;
  try {
    doc = parseToml(text);
  } catch {
    return applyOps(text, []); // the parse error, said as every edit says it
  }
  const ops: FieldOp[] = [];
  for (const table of tables) {
    const value = lookup(doc, table);
    if (value === null || typeof value !== "object" || Array.isArray(value)) continue;
    for (const field of Object.keys(value)) ops.push({ table, field, value: undefined });
  }
  return applyOps(text, ops);
}

function unwrap(r: TextEditResult): string {
  if (!r.ok) throw new TomlEditRefusal(r.error.message);
  return r.text;
}

// The file: lock, re-read, atomic replace.

/**
 * Edits a TOML document under the writer lock, atomically. Under the lock the file is re-read; a
 * missing file reads as `""`; a file that is not UTF-8 or not valid TOML is refused. `edit` gets
 * the current text and returns the new one; it may throw (for instance a `TomlEditRefusal`)
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
    const locked = await withFileLock(`${target}.lock`, async () => {
      return (await writeTarget(configPath)) === target ? await editLocked(target, edit) : null;
    }, PEOPLE_LOCK_WAIT_MS);
    if (!locked.ok) return { ok: false, error: { kind: "io", message: locked.error } };
    if (locked.value !== null) return locked.value;
  }
  return { ok: false, error: { kind: "io", message: `${configPath} keeps being re-linked; not written, try again` } };
}

/** How often {@link editTomlFile} starts over when the config's symlink changes under it. */
const RELINK_ATTEMPTS = 3;

/** The file a write of `configPath` really replaces: its real path (a symlinked config is written
 * through, the link stays), the file a dangling link names (created there; the link stays too), or
 * `configPath` itself when it does not exist yet (`writeTargetSync`). */
function writeTarget(configPath: string): Promise<string | StateWriteResult> {
  try {
    return Promise.resolve(writeTargetSync(configPath).target);
  } catch (e) {
    return Promise.resolve(ioError(`cannot resolve ${configPath}`, e));
  }
}

/** Temp files of a writer killed mid-write are removed by a later writer once they are this old;
 * the age (on top of holding the lock) keeps a writer from deleting a temp file that another
 * writer, reaching the same file through a differently spelled path, is still filling. */
const STALE_TEMP_MS = 60_000;

/** Mode of a newly created config: it holds trust decisions and may hold MCP credentials. */
const NEW_FILE_MODE = 0o600;

/** The edit itself, under the lock; `target` is the resolved file (see {@link writeTarget}). */
async function editLocked(target: string, edit: (text: string) => string): Promise<StateWriteResult> {
  let bytes: Uint8Array | null = null;
  try {
    const info = await Deno.stat(target);
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
    await removeStaleTemps(target, STALE_TEMP_MS);
    // One temp name per process (`atomicTempPath`): the sandbox grants exactly it for a symlinked
    // config, and holding the lock makes it free.
    await writeFileAtomic(target, next, { newFileMode: NEW_FILE_MODE, tempPath: atomicTempPath(target, Deno.pid) });
  } catch (e) {
    return ioError(`cannot write ${target}`, e);
  }
  return { ok: true, changed: true };
}

function ioError(what: string, e: unknown): StateWriteResult {
  return { ok: false, error: { kind: "io", message: `${what}: ${errorText(e)}` } };
}

function parseError(message: string): StateWriteResult {
  return { ok: false, error: { kind: "parse", message } };
}
