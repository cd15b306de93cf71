/**
 * Whether a host could start the launcher `install claude|codex` registers (`--command`, default `mind-hooks`):
 * the program — the command's first shell word — must be an executable file given by its absolute path, or an
 * executable file in one of the PATH directories. A relative path with a separator is refused, because the
 * host starts hooks from the session's directory, not from ours.
 *
 * The candidate files are computed without touching the disk, so the sandbox plan can grant read access to
 * exactly them (src/sandbox/plan.ts).
 * @module
 */
import { join } from "../util/paths.ts";
import { fail, ok, type Result } from "./result.ts";

/** The platform's path and executable rules. */
export type LauncherOs = "windows" | "posix";

/** The program a shell would start for `command`: its first word, with POSIX quotes removed. */
export function launcherProgram(command: string): string {
  const s = command.trimStart();
  let out = "";
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (/\s/.test(c)) break;
    if (c === "'") {
      const end = s.indexOf("'", i + 1);
      out += s.slice(i + 1, end < 0 ? undefined : end);
      i = end < 0 ? s.length : end;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < s.length && s[j] !== '"'; j++) out += s[j] === "\\" && j + 1 < s.length ? s[++j] : s[j];
      i = j;
    } else if (c === "\\" && i + 1 < s.length) out += s[++i];
    else out += c;
  }
  return out;
}

function hasSeparator(p: string, os: LauncherOs): boolean {
  return os === "windows" ? /[\\/]/.test(p) : p.includes("/");
}

function isAbsolute(p: string, os: LauncherOs): boolean {
  return os === "windows" ? /^[A-Za-z]:[\\/]/.test(p) || p.startsWith("\\\\") : p.startsWith("/");
}

/** The PATH directories (absolute entries only: a relative one would depend on the host's directory). */
export function pathDirs(env: Record<string, string | undefined>, os: LauncherOs): string[] {
  const value = env.PATH ?? env.Path ?? "";
  return value.split(os === "windows" ? ";" : ":").filter((d) => d !== "" && isAbsolute(d, os));
}

/** The files that could be the program, in the order a shell would try them; or a problem sentence. */
export function launcherCandidates(
  program: string,
  env: Record<string, string | undefined>,
  os: LauncherOs,
): Result<string[]> {
  if (program === "") return fail("the launcher is empty");
  // The host runs the command through a shell, which expands a leading ~ or $HOME.
  const home = env.HOME;
  const expanded = os === "posix" && home ? program.replace(/^(~|\$HOME|\$\{HOME\})(?=\/)/, home) : program;
  if (expanded !== program) return launcherCandidates(expanded, env, os);
  const withExt = (p: string): string[] => {
    if (os !== "windows" || /\.[A-Za-z0-9]+$/.test(p.slice(Math.max(p.lastIndexOf("\\"), p.lastIndexOf("/")) + 1))) {
      return [p];
    }
    const exts = (env.PATHEXT ?? ".COM;.EXE;.BAT;.CMD").split(";").filter((e) => e !== "");
    return exts.map((e) => p + e.toLowerCase());
  };
  if (hasSeparator(program, os)) {
    if (!isAbsolute(program, os)) {
      return fail(`"${program}" is a relative path, which the host would resolve from another directory`);
    }
    return ok(withExt(program));
  }
  return ok(pathDirs(env, os).flatMap((d) => withExt(join(d, program))));
}

/** Finds the launcher's program on disk: its path, or one sentence saying why a host could not start it. */
export async function findLauncher(
  command: string,
  env: Record<string, string | undefined>,
  os: LauncherOs,
): Promise<Result<string>> {
  const program = launcherProgram(command);
  const candidates = launcherCandidates(program, env, os);
  if (!candidates.ok) return candidates;
  let notExecutable: string | null = null;
  for (const file of candidates.value) {
    let info: Deno.FileInfo;
    try {
      info = await Deno.stat(file);
    } catch {
      continue;
    }
    if (!info.isFile) continue;
    if (os === "windows" || ((info.mode ?? 0) & 0o111) !== 0) return ok(file);
    notExecutable ??= file;
  }
  if (notExecutable) return fail(`${notExecutable} is not executable`);
  return fail(hasSeparator(program, os) ? `${program} does not exist` : `"${program}" is not on PATH`);
}
