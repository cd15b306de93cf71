/**
 * The throw-away copy of a project (SPEC §16): `test --untrusted`, `test --replay` and review's replay run
 * hooks in a copy of the project in reach, under `<temp>/mind-hooks-test-<pid>/`, so that what they write
 * lands there and is deleted after the run. Which hooks run there is said through `-c` overrides only
 * (the copy's project trusted for this process, every other hook disabled, trust bypassed for the rest):
 * the engine runs the copy as any configuration, with no branch of its own for tests.
 * @module
 */
import { isInside, join } from "../util/paths.ts";

/** The folder the copies of one process go in (the sandbox grants exactly it: src/sandbox/plan.ts). */
export function throwawayDir(tempRoot: string, pid: number = Deno.pid): string {
  return join(tempRoot, `mind-hooks-test-${pid}`);
}

/** One project copied: its real root, the copy's root, and how paths and keys map between them. */
export type ProjectCopy = {
  root: string;
  copy: string;
  /** A path of the real project as it is in the copy (a path outside the project: the copy's root). */
  inCopy(path: string): string;
  /** A copy's hook key as the real project's (its file path back under the real root). */
  realKey(key: string): string;
  /** A real hook key as the copy's. */
  copyKey(key: string): string;
  /** Deletes the copy (and its folder when left empty). */
  dispose(): Promise<void>;
};

/** Copies `from` into `to`: files, folders and symbolic links as links (never followed). */
async function copyTree(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const e of Deno.readDir(from)) {
    const src = join(from, e.name);
    const dst = join(to, e.name);
    if (e.isSymlink) await Deno.symlink(await Deno.readLink(src), dst);
    else if (e.isDirectory) await copyTree(src, dst);
    else if (e.isFile) await Deno.copyFile(src, dst);
  }
}

/** Replaces the path prefix `from` of a key's file part with `to`. */
function swapRoot(key: string, from: string, to: string): string {
  const at = key.indexOf(from);
  if (at < 0) return key;
  const after = key[at + from.length];
  return after === "/" || after === "\\" || after === ":" ? key.slice(0, at) + to + key.slice(at + from.length) : key;
}

/**
 * Copies the project at `root` (a real path) into a fresh throw-away folder under `tempRoot`; with no
 * project (`root` null), an empty folder stands for `start`, the folder the hooks would run in.
 */
export async function copyProject(root: string | null, start: string, tempRoot: string): Promise<ProjectCopy> {
  const dir = throwawayDir(tempRoot);
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  const made = await Deno.makeTempDir({ dir, prefix: "copy-" });
  const from = root ?? start;
  const target = join(made, from.split(/[\\/]/).filter(Boolean).pop() ?? "project");
  if (root !== null) await copyTree(root, target);
  else await Deno.mkdir(target);
  // Discovery keys hooks by real paths: the copy is known by its own.
  const copy = await Deno.realPath(target);
  return {
    root: from,
    copy,
    inCopy: (path) => root !== null && isInside(root, path) ? copy + path.slice(root.length) : copy,
    realKey: (key) => root === null ? key : swapRoot(key, copy, root),
    copyKey: (key) => root === null ? key : swapRoot(key, root, copy),
    dispose: async () => {
      await Deno.remove(made, { recursive: true }).catch(() => {});
      await Deno.remove(dir).catch(() => {}); // only when empty: another copy of this run may be in it
    },
  };
}

/** A `-c` item that sets one hook's state value (the key quoted as a TOML basic string). */
export function stateOverride(key: string, field: "enabled", value: boolean): string {
  return `hooks.state.${JSON.stringify(key)}.${field}=${value}`;
}

/** The `-c` item that trusts the project at `root` for this process only (never written). */
export function projectTrustOverride(root: string): string {
  return `projects.${JSON.stringify(root)}.trust_level="trusted"`;
}

/** The `-c` item that keeps a run of tests out of the user's recordings (SPEC §16). */
export const NO_RECORDING = "hooks.record=false";
