/**
 * The spill folders (SPEC §10) as a stranger could find them: `<temp>/hook_outputs` lives in a
 * shared temp folder, where another user (or a hook) can plant a symlink or a folder of their own
 * before the engine first runs. Following it would write the session's full outputs into the
 * planted target, and session end would delete inside it. So a spill root, and a session folder
 * inside it, is used only when it is a real folder (never a symlink) owned by the current user; the
 * engine creates both 0700 and its files 0600. Session end never follows a link.
 *
 * Windows has no uid: there the owner check is skipped and the symlink check kept.
 * @module
 */
import { dirname } from "../util/paths.ts";

/** Why a folder may not hold spilled outputs; null when it may. */
export type Refusal = string | null;

/** Owner-only, as the outputs may hold secrets until the session ends. */
const FOLDER_MODE = 0o700;

/** The uid of this process, null on Windows (no uids there). Throws when the uid may not be read. */
function ownUid(): number | null {
  return Deno.build.os === "windows" ? null : Deno.uid();
}

/** Why `info` (an lstat of `path`) is not a folder the engine may use; null when it may. */
function refusalOf(path: string, info: Deno.FileInfo, uid: number | null): Refusal {
  if (info.isSymlink) return `${path} is a symlink`;
  if (!info.isDirectory) return `${path} is not a folder`;
  if (uid !== null && info.uid !== null && info.uid !== uid) {
    return `${path} is owned by another user (uid ${info.uid})`;
  }
  return null;
}

/** A folder that exists (created 0700 when missing) as a real folder of this user, or why not. */
async function ownedFolder(path: string, uid: number | null): Promise<Refusal> {
  try {
    await Deno.mkdir(path, { mode: FOLDER_MODE });
  } catch (e) {
    if (!(e instanceof Deno.errors.AlreadyExists)) throw e;
  }
  // lstat after the mkdir: whatever won a race for the name is what gets checked.
  const info = await Deno.lstat(path);
  const refusal = refusalOf(path, info, uid);
  if (refusal === null && info.mode !== null && (info.mode & 0o077) !== 0) {
    // Ours but readable by others (made by an older version, or by hand): close it.
    await Deno.chmod(path, FOLDER_MODE).catch(() => {});
  }
  return refusal;
}

/**
 * Makes `<root>/<session folder>` ready for a spilled file: the root and the session folder, each
 * checked, and the temp folder (with its parents) only when it is missing. Returns why it refused (a
 * one-line reason), or null when `sessionDir` may be written. Throws on other I/O errors (the caller
 * treats those as "could not be saved").
 *
 * The temp folder itself is not touched when it exists: a trusted project's run is narrowed to
 * writing `<temp>/hook_outputs` (src/sandbox/plan.ts), and even a no-op `mkdir -p` of the temp
 * folder asks for write access to it, which made every spill of a sandboxed run fail.
 */
export async function prepareSpillFolder(root: string, sessionDir: string): Promise<Refusal> {
  let uid: number | null;
  try {
    uid = ownUid();
  } catch {
    // A host embedding the engine without the `sys` uid permission: the owner cannot be checked.
    return `the owner of ${root} cannot be checked (no permission to read this process's uid)`;
  }
  let rootRefusal: Refusal;
  try {
    rootRefusal = await ownedFolder(root, uid);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
    // No temp folder yet (a `--temp-dir` named before it exists): made as the fast path makes it.
    await Deno.mkdir(dirname(root), { recursive: true });
    rootRefusal = await ownedFolder(root, uid);
  }
  return rootRefusal ?? await ownedFolder(sessionDir, uid);
}

/**
 * Deletes `<root>/<session folder>` and what it holds, following no link: a root that is not a
 * real folder of this user is left alone (nothing of ours can be in it), a session folder that is
 * a symlink loses only the link, and the recursive removal of a real one removes links inside it,
 * never what they point at. A missing folder is not an error.
 */
export async function removeSpillFolder(root: string, sessionDir: string): Promise<void> {
  let uid: number | null;
  try {
    uid = ownUid();
  } catch {
    return; // The owner cannot be checked: delete nothing.
  }
  for (const path of [root, sessionDir]) {
    let info: Deno.FileInfo;
    try {
      info = await Deno.lstat(path);
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) return;
      throw e;
    }
    if (path === sessionDir && info.isSymlink) {
      await Deno.remove(path); // the link itself, never its target
      return;
    }
    if (refusalOf(path, info, uid) !== null) return;
  }
  await Deno.remove(sessionDir, { recursive: true });
}
