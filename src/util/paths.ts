/**
 * Small path helpers: a join that needs no std library, and real paths that
 * fall back to the given path when it does not exist.
 * @module
 */

/** The two path and process models the engine knows. macOS, Linux and the BSDs are all `posix`. */
export type Platform = "posix" | "windows";

/** The platform this process runs on. */
export function currentPlatform(): Platform {
  return Deno.build.os === "windows" ? "windows" : "posix";
}

/** Joins path segments with `/` (or the separator already used by `base`). */
export function join(base: string, ...parts: string[]): string {
  const sep = base.includes("\\") && !base.includes("/") ? "\\" : "/";
  let out = base;
  for (const p of parts) out = out.endsWith(sep) ? out + p : out + sep + p;
  return out;
}

/**
 * The real path (symlinks resolved), or `path` itself when it cannot be resolved. Synchronous inside:
 * an async file-system call hands the work to another thread and waits for it, ~0.1–0.5 ms per call
 * on a busy machine, and a dispatch makes dozens of them; the call itself takes microseconds.
 */
export function realPathOr(path: string): Promise<string> {
  return Promise.resolve(realPathOrSync(path));
}

/** {@link realPathOr}, synchronously. */
export function realPathOrSync(path: string): string {
  try {
    return Deno.realPathSync(path);
  } catch {
    return path;
  }
}

/** Symlinks followed at most by {@link writeTargetSync} (Linux's own limit). */
const MAX_LINK_HOPS = 40;

/**
 * Where a write of `path` lands when the writer follows its symlinks, as opening it for writing
 * does — also when the last link dangles (a dotfile manager's link whose file is not there yet):
 * the real path when it exists; else, for a link or a chain of links, the path the last one names;
 * else `path` itself. `links` are the links read on the way, after `path` (what a narrowed run must
 * be allowed to read). Throws on a loop or a path that cannot be examined.
 */
export function writeTargetSync(path: string): { target: string; links: string[] } {
  try {
    return { target: Deno.realPathSync(path), links: [] };
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  const links: string[] = [];
  let current = path;
  for (let hop = 0; hop <= MAX_LINK_HOPS; hop++) {
    let info: Deno.FileInfo;
    try {
      info = Deno.lstatSync(current);
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) return { target: current, links };
      throw e;
    }
    if (!info.isSymlink) return { target: current, links };
    if (current !== path) links.push(current);
    const to = Deno.readLinkSync(current);
    // A relative link is relative to the folder the link is really in.
    current = isAbsolutePath(to) ? to : join(realPathOrSync(dirname(current)), to);
  }
  throw new Error(`${path}: too many levels of symbolic links`);
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

/** True for an absolute path: POSIX, a Windows drive, or a UNC share. */
export function isAbsolutePath(path: string): boolean {
  return path.startsWith("/") || /^[A-Za-z]:[\\/]/.test(path) || path.startsWith("\\\\");
}

/**
 * The OS user's home (`$HOME`, `%USERPROFILE%` on Windows) when it is usable: set, not empty, absolute
 * (SPEC §1 r3: a home is never taken relative to the cwd). Null otherwise.
 */
export function osUserHome(env: Record<string, string | undefined>): string | null {
  const home = env.HOME || env.USERPROFILE;
  return home !== undefined && home !== "" && isAbsolutePath(home) ? home : null;
}

/** An absolute version of `path` against `cwd`. */
export function absolute(path: string, cwd: string): string {
  return isAbsolutePath(path) ? path : join(cwd, path);
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

/**
 * This user's own folder in the temp directory, `<temp>/mind-hooks-<uid>` (`mind-hooks-user` where
 * the uid cannot be read): where the engine keeps what must survive a home it cannot write, such as
 * the Stop guard's fallback counters (SPEC §6 r4). Used only as a real folder of this user
 * (src/output/spill_folder.ts), as the temp directory is shared.
 */
export function userTempFolder(tempDir: string): string {
  let uid = "user";
  try {
    if (Deno.build.os !== "windows") uid = String(Deno.uid());
  } catch { /* without the uid permission: one name for the user */ }
  return join(tempDir, `mind-hooks-${uid}`);
}

// Paths (§2.3 project root search, §3.1 hook keys)

/** Matches a Windows drive root prefix `C:\` (after slashes became backslashes). */
const WIN_DRIVE = /^([A-Za-z]):(?:\\|$)/;

/**
 * Makes a path's text canonical for use in hook keys (§3.1) and `[projects."<path>"]` tables (§2.3).
 * Input is meant to be what `Deno.realPath` returns (symlinks resolved, `..` gone); this function
 * does no file-system access and does not resolve `..`, because doing that lexically is wrong across
 * symlinks. It only removes the textual variations of one real path:
 *
 * - both: repeated separators collapse, `.` segments go, a trailing separator goes except on a root.
 * - POSIX: nothing else; names are case-sensitive.
 * - Windows: `/` becomes `\` (the separator `realPath` returns); the `\\?\` and `\\.\` long-path
 *   prefixes are dropped (`\\?\C:\x` → `C:\x`, `\\?\UNC\srv\share\x` → `\\srv\share\x`) because Deno
 *   may return either form for the same directory; the drive letter is upper-cased because `c:` and
 *   `C:` reach users from different tools; roots keep their backslash (`C:\`, `\\srv\share\`). The
 *   rest keeps its case: `realPath` already returns the on-disk case, and NTFS directories can be
 *   case-sensitive, so folding case could merge two different projects.
 *
 * @param path an absolute path, ideally from `Deno.realPath`.
 * @param platform the path syntax.
 */
export function normalizeKeyPath(path: string, platform: Platform): string {
  if (platform === "posix") {
    const absolute = path.startsWith("/");
    const parts = path.split("/").filter((p) => p !== "" && p !== ".");
    const joined = parts.join("/");
    return absolute ? `/${joined}` : joined || ".";
  }
  let p = path.replace(/\//g, "\\");
  // Long-path / device prefixes: keep the path they stand for.
  const unc = /^\\\\[?.]\\UNC\\/i.exec(p);
  if (unc) p = `\\\\${p.slice(unc[0].length)}`;
  else if (/^\\\\[?.]\\[A-Za-z]:(?:\\|$)/.test(p)) p = p.slice(4);
  let prefix = "";
  let rest = p;
  if (p.startsWith("\\\\")) {
    // UNC (\\server\share\…) or a verbatim path we do not rewrite (\\?\Volume{…}\…): keep `\\`.
    prefix = "\\\\";
    rest = p.slice(2);
  } else {
    const drive = WIN_DRIVE.exec(p);
    if (drive) {
      prefix = `${drive[1].toUpperCase()}:\\`;
      rest = p.slice(drive[0].length);
    } else if (p.startsWith("\\")) {
      prefix = "\\";
      rest = p.slice(1);
    }
  }
  const parts = rest.split("\\").filter((s) => s !== "" && s !== ".");
  if (prefix === "\\\\") {
    // \\server\share is the root of a UNC path and keeps its trailing backslash like C:\.
    const joined = parts.join("\\");
    return parts.length <= 2 ? `\\\\${joined}\\` : `\\\\${joined}`;
  }
  return prefix + parts.join("\\") || ".";
}

/**
 * The root of a normalized absolute Windows path: `C:\`, `\\server\share\` or `\\?\<volume>\`;
 * undefined for a path that is not fully qualified (`C:x`, `\x`, `x`, `\\server` without a share).
 */
function windowsRoot(p: string): string | undefined {
  const drive = /^[A-Z]:\\/.exec(p);
  if (drive) return drive[0];
  const unc = /^\\\\[^\\]+\\[^\\]+\\/.exec(p);
  return unc?.[0];
}

/**
 * The directories from `start` up to its file-system root, both included, nearest first: the
 * candidates of the §2.3 project-root search (the caller skips `$MIND_HOME` and checks `.mind/`).
 *
 * POSIX: `/a/b` → `["/a/b", "/a", "/"]`. Windows: `C:\a\b` → `["C:\a\b", "C:\a", "C:\"]`;
 * `\\srv\share\a` → `["\\srv\share\a", "\\srv\share\"]` (a UNC share is a root: `\\srv` alone is not a
 * directory). The start is first passed through {@linkcode normalizeKeyPath}, so the entries are in
 * key form.
 *
 * @param start an absolute directory path, ideally from `Deno.realPath`.
 * @param platform the path syntax.
 * @throws TypeError when `start` is not absolute (a relative or drive-relative path has no defined
 *   ancestors without the process cwd, which a pure function does not read).
 */
export function ancestorDirs(start: string, platform: Platform): string[] {
  const p = normalizeKeyPath(start, platform);
  const out: string[] = [];
  if (platform === "posix") {
    if (!p.startsWith("/")) {
      throw new TypeError(`not an absolute path: ${start}`);
    }
    let dir = p;
    out.push(dir);
    while (dir !== "/") {
      dir = dir.slice(0, dir.lastIndexOf("/")) || "/";
      out.push(dir);
    }
    return out;
  }
  const root = windowsRoot(p);
  if (!root) throw new TypeError(`not an absolute path: ${start}`);
  let dir = p;
  out.push(dir);
  while (dir !== root) {
    const parent = dir.slice(0, dir.lastIndexOf("\\"));
    dir = parent.length < root.length ? root : parent;
    out.push(dir);
  }
  return out;
}

/**
 * The folders the project search visits from `start`, nearest first (SPEC §2.3). A start that is
 * not absolute (an event's cwd may be anything) is looked at alone: it has no defined ancestors.
 */
export function searchDirs(start: string): string[] {
  try {
    return ancestorDirs(start, currentPlatform());
  } catch {
    return [start];
  }
}
