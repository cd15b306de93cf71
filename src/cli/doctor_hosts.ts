/**
 * `doctor`'s check of the four hosts (issue 25 item 3): for Claude Code, Codex, Gemini CLI and Copilot
 * CLI, whether the host is installed (its command on PATH), whether it delegates to mind-hooks (its user
 * settings, and this project's), whether a recorded `--sync` install is stale (`$MIND_HOME/installs.json`),
 * and that the launcher it calls runs (`<launcher> --version`, from a clean login shell as the host would
 * start it). Each problem comes with the one command
 * that fixes it.
 *
 * A launcher is run only when it comes from the user's own settings or from an install the user made (a
 * record): the host runs it on every event anyway. One that only a project's file names — a stranger's —
 * is looked up on disk, never run.
 * @module
 */
import { ADAPTERS, type Host, HOST_DISPLAY_NAMES, HOSTS } from "../adapter/hosts.ts";
import { delegatingCommands, launcherOf } from "../adapter/settings.ts";
import { readSettingsText, settingsTarget } from "../adapter/settings_target.ts";
import { readInstalls, resyncCommand } from "../adapter/installs.ts";
import { changeWords, syncedRegistrations } from "../adapter/resync.ts";
import { eventsOf, sameEvents } from "../adapter/installs.ts";
import type { HomeSettings } from "../engine/settings.ts";
import { findLauncher, launcherProgram } from "../util/launcher.ts";
import { ok, type Result } from "../util/result.ts";
import { hostFiles } from "../adapter/host_files.ts";
import { oneLine } from "../util/terminal_text.ts";

/** What the hosts section prints, and the fixes it asks for. */
export type HostReport = { lines: string[]; fixes: string[] };

const OS = Deno.build.os === "windows" ? "windows" : "posix";

/** How a host started outside the user's terminal looks for a program. */
const LOGIN_SHELL = "a clean login shell (env -i HOME=… sh -lc)";

/** How long a launcher may take to answer `--version` (a first `npx` start fetches Deno). */
const LAUNCHER_TIMEOUT_MS = 30_000;

/** The mind-hooks commands a settings file registers ([] when it has none or may not be read). */
async function commandsIn(host: Host, file: string, project: string | null): Promise<Result<string[]>> {
  const t = await settingsTarget(file, project);
  if (!t.ok) return t;
  const text = await readSettingsText(t.value.target).catch(() => null);
  return ok(text === null ? [] : delegatingCommands(host, text).map((c) => c.command));
}

/**
 * Whether `launcher` starts and answers `--version`, in a word and a detail — started as a host would start
 * it (SPEC §6 r4): from a clean login shell (`env -i HOME=… sh -lc`), whose PATH is the one an agent started
 * from an IDE or a desktop launcher gets, not doctor's own.
 */
export async function launcherRuns(
  launcher: string,
  env: Record<string, string | undefined>,
): Promise<{ ok: boolean; detail: string }> {
  const program = launcherProgram(launcher);
  // A path is looked at first (its own words say what is wrong); a bare name only the login shell can find.
  if (program.includes("/") || OS === "windows") {
    const found = await findLauncher(launcher, env, OS);
    if (!found.ok) return { ok: false, detail: found.error };
    if (OS === "windows") return { ok: true, detail: `found at ${found.value}` };
  }
  try {
    const out = await new Deno.Command("/bin/sh", {
      args: ["-lc", `${launcher} --version`],
      clearEnv: true,
      env: env.HOME === undefined ? {} : { HOME: env.HOME },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(LAUNCHER_TIMEOUT_MS),
    }).output();
    const said = new TextDecoder().decode(out.success ? out.stdout : out.stderr).trim().split("\n")[0] ?? "";
    if (out.success) return { ok: true, detail: said === "" ? "exit 0" : oneLine(said, 80) };
    // A bare name the login shell's PATH lacks; a path that ran but said nothing of its own 127.
    if (out.code === 127 && !program.includes("/")) {
      return { ok: false, detail: `${LOGIN_SHELL} does not find "${program}"` };
    }
    return { ok: false, detail: `exit ${out.code}${said ? `: ${oneLine(said, 120)}` : ""}` };
  } catch (e) {
    return { ok: false, detail: e instanceof Error ? e.message.split("\n")[0] : String(e) };
  }
}

/** The hosts section of `doctor`. `project` is the project in reach (its root), or the directory doctor looks from. */
export async function checkHosts(settings: HomeSettings, project: string): Promise<HostReport> {
  const env = settings.env;
  const cwd = settings.processCwd;
  const lines: string[] = [];
  const fixes: string[] = [];
  const { installs, problem } = await readInstalls(settings.home);
  if (problem !== null) lines.push(`  ${problem}: recorded installs are not checked`);
  const installed: Host[] = [];
  let delegating = 0;
  const tried = new Map<string, { ok: boolean; detail: string }>();
  const run = async (launcher: string) => {
    if (!tried.has(launcher)) tried.set(launcher, await launcherRuns(launcher, env));
    return tried.get(launcher)!;
  };
  for (const host of HOSTS) {
    const name = HOST_DISPLAY_NAMES[host];
    const spec = ADAPTERS[host].install;
    const onPath = await findLauncher(spec.program, env, OS);
    if (onPath.ok) installed.push(host);
    const files = hostFiles(host, env, cwd, project);
    const user = await commandsIn(host, files.user, null);
    const where: string[] = [];
    const launchers = new Set<string>();
    if (user.ok && user.value.length > 0) {
      where.push(`user settings (${files.user})`);
      for (const c of user.value) launchers.add(launcherOf(c));
    } else if (!user.ok) lines.push(`  ${name}: ${user.error}`);
    const strangers = new Set<string>();
    // In the home folder, "this project's" file is the user's own: said once.
    for (const f of files.project.filter((f) => f !== files.user)) {
      const p = await commandsIn(host, f, project);
      if (!p.ok) {
        lines.push(`  ${name}: ${p.error}`);
        continue;
      }
      if (p.value.length > 0) where.push(`this project (${f})`);
      for (const c of p.value) strangers.add(launcherOf(c));
    }
    const records = installs.filter((r) => r.host === host);
    for (const r of records) launchers.add(r.launcher);
    if (where.length > 0) delegating++;
    lines.push(
      `  ${name}: ${onPath.ok ? `installed (${onPath.value})` : `not installed (${spec.program}: ${onPath.error})`}; ${
        where.length > 0 ? `delegates to mind-hooks from ${where.join(" and ")}` : "does not delegate to mind-hooks"
      }`,
    );
    if (where.length === 0) {
      // Nothing calls a launcher: there is nothing to run.
      launchers.clear();
      strangers.clear();
    }
    for (const launcher of launchers) {
      const r = await run(launcher);
      lines.push(`    launcher "${launcher}": ${r.ok ? `runs (${r.detail})` : `does NOT run (${r.detail})`}`);
      if (!r.ok) {
        fixes.push(
          `${name} calls "${launcher}", which does not run as ${name} would start it (${r.detail}): run ` +
            `mind-hooks install ${host} (it writes the launcher's absolute path), or give --command ` +
            `/absolute/path/to/mind-hooks`,
        );
      }
    }
    for (const launcher of strangers) {
      // A project's file names it: a stranger's command, neither run nor looked up.
      if (!launchers.has(launcher)) lines.push(`    launcher "${launcher}" (from the project's file): not run`);
    }
    for (const r of records.filter((x) => x.sync)) {
      const needed = await syncedRegistrations(host, r.searchFrom, settings);
      if (!needed.ok) {
        lines.push(`    ${r.file} (--sync): not checked: ${needed.error}`);
        continue;
      }
      const now = eventsOf(needed.value);
      if (sameEvents(now, r.events)) lines.push(`    ${r.file} (--sync): in step`);
      else {
        lines.push(`    ${r.file} (--sync): STALE`);
        fixes.push(`${r.file} is stale (--sync; ${changeWords(host, r.events, now)}): run ${resyncCommand(r)}`);
      }
    }
  }
  if (installed.length > 0 && delegating === 0) {
    fixes.push(`no host delegates to mind-hooks: run mind-hooks install ${installed[0]}`);
  }
  return { lines, fixes };
}
