/**
 * Where a write of a host's settings file really lands (issue 22 item 11), decided before anything is
 * read or written. A project install (`--project`, `--local`) writes only inside the project: a settings
 * file, or a `.claude`/`.codex`/`.gemini`/`.github` folder on its way, that is a link whose real location
 * leaves the project is refused — a repository can commit `.claude/settings.json` as a link to
 * `~/.claude/settings.json`, and install would otherwise copy the user's settings (an API key in `env`)
 * into the repository, or edit files outside it. A user install writes through the user's own link
 * (dotfile managers), as the state writer does for `config.toml`: the link stays, its target changes.
 * @module
 */
import { atomicTempPath, dirname, isInside, join } from "../util/paths.ts";
import { writeFileAtomic } from "../util/atomic_file.ts";
import { fail, ok, type Result } from "../util/result.ts";

/** Where to write. `linked`: the file is a link, written through (and never deleted). */
export type SettingsTarget = { readonly target: string; readonly linked: boolean };

async function lstatOrNull(path: string): Promise<Deno.FileInfo | null> {
  try {
    return await Deno.lstat(path);
  } catch {
    return null;
  }
}

/** The real path of the nearest existing folder on the way to `path`, with the names below it. */
async function realFolder(path: string): Promise<{ real: string; rest: string[] }> {
  let dir = dirname(path);
  const rest = [path.slice(dir.endsWith("/") ? dir.length : dir.length + 1)];
  for (;;) {
    try {
      return { real: await Deno.realPath(dir), rest };
    } catch {
      const up = dirname(dir);
      if (up === dir) return { real: dir, rest };
      rest.unshift(dir.slice(up.endsWith("/") ? up.length : up.length + 1));
      dir = up;
    }
  }
}

/**
 * Where writing `file` goes. `project` is the project's real root for a project install, null for a
 * user install.
 */
export async function settingsTarget(file: string, project: string | null): Promise<Result<SettingsTarget>> {
  const info = await lstatOrNull(file);
  let target: string;
  if (info?.isSymlink) {
    try {
      target = await Deno.realPath(file);
    } catch {
      const to = await Deno.readLink(file).catch(() => "?");
      return fail(`${file} is a link to ${to}, which does not exist; nothing was written`);
    }
  } else {
    const { real, rest } = await realFolder(file);
    target = join(real, ...rest);
  }
  if (project !== null && !isInside(project, target)) {
    return fail(
      `${file} leads outside the project (to ${target}): a project install writes only inside ` +
        `${project}; nothing was written`,
    );
  }
  return ok({ target, linked: info?.isSymlink === true });
}

/**
 * What the sandbox must grant (read and write) for a write through a linked settings file beyond the
 * host folder it already grants: the link's target and the one temp file beside it
 * ({@link atomicTempPath}); empty when the file is no link or may not be written.
 */
export async function settingsLinkGrants(file: string, project: string | null, pid: number): Promise<string[]> {
  const t = await settingsTarget(file, project);
  return t.ok && t.value.linked ? [t.value.target, atomicTempPath(t.value.target, pid)] : [];
}

/** The text of the settings file at `target`, or null when there is none. */
export async function readSettingsText(target: string): Promise<string | null> {
  try {
    return await Deno.readTextFile(target);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return null;
    throw e;
  }
}

/**
 * Writes `text` to `t.target` atomically (src/util/atomic_file.ts) through its one grantable temp file
 * ({@link atomicTempPath}), so that the sandbox can grant exactly the file and that temp file (a re-sync,
 * src/adapter/resync.ts) rather than the host's folder, which may hold its credentials. Creates the folder
 * when it is missing (install; a link's target has one).
 */
export async function writeSettingsText(t: SettingsTarget, text: string): Promise<void> {
  // An existing file has its folder (and a re-sync is granted the file, not the folder).
  const folder = dirname(t.target);
  const there = t.linked || await Deno.lstat(t.target).then(() => true, () => false) ||
    await Deno.stat(folder).then((i) => i.isDirectory, () => false);
  if (!there) await Deno.mkdir(folder, { recursive: true });
  await writeFileAtomic(t.target, text, { tempPath: atomicTempPath(t.target, Deno.pid) });
}

/**
 * What the sandbox must grant (read and write) for a re-sync of `file`: the file and its temp file, and
 * for a link its target and the temp file beside that.
 */
export async function settingsWriteGrants(file: string, project: string | null, pid: number): Promise<string[]> {
  return [file, atomicTempPath(file, pid), ...await settingsLinkGrants(file, project, pid)];
}
