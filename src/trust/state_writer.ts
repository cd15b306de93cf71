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
 * The jobs, one module each: locate (`state_layout.ts`: the line layout from the syntax tree),
 * plan (`state_plan.ts`: which fields change, and whether a splice may change them), splice
 * (`state_splice.ts`: the text edits), verify (`state_verify.ts`: the checks before and after),
 * and the file (`state_file.ts`: lock, re-read, atomic replace).
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

import { editTomlFile, type StateWriteResult } from "./state_file.ts";
import { TomlEditRefusal } from "./state_layout.ts";
import { applyOps, type FieldOp, type TextEditResult } from "./state_plan.ts";

export { editTomlFile, type StateWriteResult } from "./state_file.ts";
export { TomlEditRefusal } from "./state_layout.ts";
export type { StateWriteError, TextEditResult } from "./state_plan.ts";
export { tomlKeyPath } from "./state_splice.ts";

/** The change for one hook key. `enabled: true` removes the `enabled` key (true is the default),
 * `enabled: false` writes `enabled = false`; `trustedHash: null` removes `trusted_hash` (untrust);
 * `undefined` leaves a field as it is. The two fields are independent. */
export type StatePatch = { enabled?: boolean; trustedHash?: string | null };

/** Project trust levels stored under `[projects."<dir>"]` (§2.3). */
export type ProjectTrustLevel = "trusted" | "untrusted";

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

function unwrap(r: TextEditResult): string {
  if (!r.ok) throw new TomlEditRefusal(r.error.message);
  return r.text;
}
