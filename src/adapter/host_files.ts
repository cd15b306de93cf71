/**
 * The hosts' settings files `doctor` reads (src/cli/doctor_hosts.ts), and what its sandbox must grant for
 * them: each host's user settings file (the file alone — `~/.claude` and `~/.codex` hold credentials),
 * the project settings files of every folder from the search start up (the project root is found later),
 * a linked file's target, the host commands and the user's launchers on PATH.
 * @module
 */
import { ADAPTERS, HOSTS } from "./hosts.ts";
import type { Host } from "./host.ts";
import { delegatingCommands, launcherOf } from "./settings.ts";
import { readInstalls } from "./installs.ts";
import { join, searchDirs } from "../util/paths.ts";
import { launcherCandidates, launcherProgram } from "../util/launcher.ts";

/** The settings files of `host` doctor reads: the user's, then the project's (Claude Code: both of its). */
export function hostFiles(
  host: Host,
  env: Record<string, string | undefined>,
  cwd: string,
  project: string,
): { user: string; project: string[] } {
  const spec = ADAPTERS[host].install;
  const user = join(spec.folder({}, env, cwd).path, spec.file({}));
  const projectFiles = [false, ...(spec.local ? [true] : [])].map((local) =>
    join(spec.folder({ project }, env, cwd).path, spec.file({ project, local }))
  );
  return { user, project: projectFiles };
}

async function real(path: string): Promise<string | null> {
  try {
    return await Deno.realPath(path);
  } catch {
    return null;
  }
}

/**
 * What `doctor` reads for its hosts check, decided before it runs: the files above, the candidate files of
 * each host's command and of every launcher the user's own settings or recorded installs name (the user's
 * files, read here as `reach` reads config.toml), and a linked file's target. A project's settings file is
 * a stranger's: granted to be read in the sandbox, never parsed here.
 */
export async function hostCheckReads(
  env: Record<string, string | undefined>,
  cwd: string,
  searchFrom: string,
  home: string,
  os: "windows" | "posix",
): Promise<string[]> {
  const out = new Set<string>();
  const launchers = new Set<string>();
  const starts = [searchFrom, ...((await real(searchFrom)) !== null ? [(await real(searchFrom))!] : [])];
  for (const host of HOSTS) {
    const candidates = launcherCandidates(ADAPTERS[host].install.program, env, os);
    if (candidates.ok) { for (const f of candidates.value) out.add(f); }
    const user = hostFiles(host, env, cwd, searchFrom).user;
    out.add(user);
    const target = await real(user);
    if (target !== null) out.add(target);
    try {
      for (const c of delegatingCommands(host, await Deno.readTextFile(user))) launchers.add(launcherOf(c.command));
    } catch {
      // no user settings file
    }
    for (const start of starts) {
      for (const dir of searchDirs(start)) for (const f of hostFiles(host, env, cwd, dir).project) out.add(f);
    }
  }
  for (const r of (await readInstalls(home)).installs) launchers.add(r.launcher);
  for (const l of launchers) {
    const candidates = launcherCandidates(launcherProgram(l), env, os);
    if (candidates.ok) { for (const f of candidates.value) out.add(f); }
  }
  return [...out];
}
