/**
 * One change, one entry (SPEC §14 r3): when a file that several trusted hooks pin changes, each of
 * them is `modified` for the same reason, and showing (or re-trusting) them one by one buries the
 * one thing that happened. A change group holds the hooks whose definitions are still the trusted
 * ones and whose only change is the same set of pinned files (`.mind/lib/policy.py changed — 33
 * hooks`): `list` and `review` show it once, with one diff, and one trust re-trusts them all.
 *
 * Also here: hooks that pin the same set of files (`36 pinned files (same as 33 others)`), so `list`
 * prints a long set once.
 * @module
 */
import type { HookView, PinnedFileView } from "./catalog_view.ts";

/** A changed pinned file. */
export type ChangedFile = { path: string; state: "changed" | "removed" | "added" };

/** Hooks whose only change is the same set of pinned files. */
export type ChangeGroup = {
  /** The root the paths are relative to (a project's or a plugin's). */
  root: string;
  files: ChangedFile[];
  /** The hooks' keys, in configuration order. */
  keys: string[];
  /** `.mind/lib/policy.py changed — 33 hooks`. */
  label: string;
};

/** The changed pinned files of a hook whose definition is still trusted, or null (it changed otherwise). */
export function onlyFileChanges(h: HookView): ChangedFile[] | null {
  const p = h.pinned;
  if (
    h.status !== "modified" || h.verdict.definitionStatus !== "trusted" || p === null || p.error !== null ||
    p.unrecorded
  ) {
    return null;
  }
  const changed = p.files.filter((f): f is PinnedFileView & ChangedFile =>
    f.state === "changed" || f.state === "removed" || f.state === "added"
  ).map((f) => ({ path: f.path, state: f.state }));
  return changed.length > 0 ? changed : null;
}

/** `a changed`, `a changed, b removed`, `a changed and 3 more files`. */
export function filesLabel(files: readonly ChangedFile[]): string {
  const one = (f: ChangedFile) => `${f.path} ${f.state}`;
  if (files.length <= 2) return files.map(one).join(", ");
  return `${one(files[0])} and ${files.length - 1} more files`;
}

/** The change groups of `hooks` (two hooks at least each), in the order of their first hook. */
export function changeGroups(hooks: readonly HookView[]): ChangeGroup[] {
  const byChange = new Map<string, ChangeGroup>();
  for (const h of hooks) {
    const files = onlyFileChanges(h);
    const root = h.handler.pins?.scope.root;
    if (files === null || root === undefined) continue;
    const id = JSON.stringify([root, files.map((f) => [f.path, f.state])]);
    const g = byChange.get(id);
    if (g) g.keys.push(h.key);
    else byChange.set(id, { root, files, keys: [h.key], label: "" });
  }
  const groups = [...byChange.values()].filter((g) => g.keys.length > 1);
  for (const g of groups) g.label = `${filesLabel(g.files)} — ${g.keys.length} hooks`;
  return groups;
}

/**
 * For each hook with pinned files, how many other hooks pin exactly the same files (same root and
 * paths) and whether it is the first of them: `list` prints the set once.
 */
export function pinShares(hooks: readonly HookView[]): Map<string, { others: number; first: boolean }> {
  const byFiles = new Map<string, string[]>();
  for (const h of hooks) {
    const p = h.pinned;
    const root = h.handler.pins?.scope.root;
    if (p === null || p.error !== null || p.files.length === 0 || root === undefined) continue;
    const id = JSON.stringify([root, p.files.map((f) => [f.path, f.state])]);
    byFiles.set(id, [...byFiles.get(id) ?? [], h.key]);
  }
  const out = new Map<string, { others: number; first: boolean }>();
  for (const keys of byFiles.values()) {
    keys.forEach((k, i) => out.set(k, { others: keys.length - 1, first: i === 0 }));
  }
  return out;
}
