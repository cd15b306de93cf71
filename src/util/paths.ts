/**
 * Small path helpers: a join that needs no std library, and real paths that
 * fall back to the given path when it does not exist.
 * @module
 */

/** Joins path segments with `/` (or the separator already used by `base`). */
export function join(base: string, ...parts: string[]): string {
  const sep = base.includes("\\") && !base.includes("/") ? "\\" : "/";
  let out = base;
  for (const p of parts) out = out.endsWith(sep) ? out + p : out + sep + p;
  return out;
}

/** The real path (symlinks resolved), or `path` itself when it cannot be resolved. */
export async function realPathOr(path: string): Promise<string> {
  try {
    return await Deno.realPath(path);
  } catch {
    return path;
  }
}

/** True when `inner` is `root` or below it (both real, absolute paths; `\\`-separated on Windows). */
export function isInside(root: string, inner: string): boolean {
  const sep = root.includes("\\") && !root.includes("/") ? "\\" : "/";
  return inner === root || inner.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** The directory part of a path. */
export function dirname(path: string): string {
  const i = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
  return i <= 0 ? (i === 0 ? path[0] : ".") : path.slice(0, i);
}

/** An absolute version of `path` against `cwd`. */
export function absolute(path: string, cwd: string): string {
  if (
    path.startsWith("/") || /^[A-Za-z]:[\\/]/.test(path) ||
    path.startsWith("\\\\")
  ) return path;
  return join(cwd, path);
}

/**
 * The sibling temp file through which process `pid` atomically replaces `target`:
 * `<dir>/.<name>.<pid>.tmp`. One name per process and target, so the sandbox can grant exactly it
 * (src/sandbox/plan.ts); writers of one target are serialized by their lock, so the name is free.
 */
export function atomicTempPath(target: string, pid: number): string {
  const i = Math.max(target.lastIndexOf("/"), target.lastIndexOf("\\"));
  return `${target.slice(0, i + 1)}.${target.slice(i + 1)}.${pid}.tmp`;
}
