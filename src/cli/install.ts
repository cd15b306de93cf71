/**
 * `mind-hooks install claude|codex [--user|--project DIR|--local] [--uninstall] [--dry-run] [--command LAUNCHER]
 * [--force]`: registers (or removes) one delegating hook entry per event the host supports, so that Claude Code
 * or Codex runs every mind hook through `mind-hooks dispatch --protocol <host>` (README: "Claude Code and Codex").
 *
 * Files: Claude Code `~/.claude/settings.json` (`$CLAUDE_CONFIG_DIR/settings.json` when set),
 * `<DIR>/.claude/settings.json`, or with `--local` `<DIR>/.claude/settings.local.json`; Codex
 * `~/.codex/hooks.json` (`$CODEX_HOME/hooks.json` when set) or `<DIR>/.codex/hooks.json`. Everything else in
 * the file is preserved; the write is atomic. Installing refuses (exit 1, nothing written) a launcher the host
 * could not start — neither an executable absolute path nor on PATH — unless `--force`. Uninstalling deletes a
 * file left holding nothing, and then its `.claude`/`.codex` folder if that is left empty.
 * @module
 */
import { type ParsedArgs, UsageError } from "../util/args.ts";
import { absolute, dirname, join, normalizeKeyPath } from "../util/paths.ts";
import { writeFileAtomic } from "../util/atomic_file.ts";
import { type Host, HOST_NAMES, HOSTS } from "../adapter/hosts.ts";
import { delegatingCommand, planEdit, SettingsError } from "../adapter/settings.ts";
import { unifiedDiff } from "../util/line_diff.ts";
import { findLauncher } from "../util/launcher.ts";
import { writeStdout } from "../util/stdio.ts";
import { sanitize, terminalLines } from "../util/terminal_text.ts";

/** Where `host` reads the hooks file that `install` edits (`project` already absolute and clean). */
export function settingsPath(
  host: Host,
  scope: { project?: string; local?: boolean },
  env: Record<string, string | undefined>,
  cwd: string,
): string {
  const clean = (p: string) => normalizeKeyPath(p, Deno.build.os === "windows" ? "windows" : "posix");
  if (scope.project !== undefined) {
    const file = host === "codex" ? "hooks.json" : scope.local ? "settings.local.json" : "settings.json";
    return clean(join(absolute(scope.project, cwd), host === "claude" ? ".claude" : ".codex", file));
  }
  const home = env.HOME ?? env.USERPROFILE ?? cwd;
  if (host === "claude") {
    return clean(
      join(env.CLAUDE_CONFIG_DIR ? absolute(env.CLAUDE_CONFIG_DIR, cwd) : join(home, ".claude"), "settings.json"),
    );
  }
  return clean(join(env.CODEX_HOME ? absolute(env.CODEX_HOME, cwd) : join(home, ".codex"), "hooks.json"));
}

/** The project directory as the user gave it, made absolute and real (so the printed paths are clean). */
async function projectDir(dir: string, cwd: string): Promise<string> {
  const abs = absolute(dir, cwd);
  try {
    const real = await Deno.realPath(abs);
    if ((await Deno.stat(real)).isDirectory) return real;
  } catch {
    // reported below
  }
  throw new UsageError(`--project ${dir}: no such directory`);
}

/** True for a settings text that holds nothing at all (no key, no comment). */
function holdsNothing(text: string): boolean {
  return text.replace(/\s/g, "") === "{}";
}

async function readIfExists(path: string): Promise<string | null> {
  try {
    return await Deno.readTextFile(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return null;
    throw new UsageError(`cannot read ${path}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** Writes `text` to `path` atomically (src/util/atomic_file.ts), creating the directory. */
async function writeAtomic(path: string, text: string): Promise<void> {
  await Deno.mkdir(dirname(path), { recursive: true });
  await writeFileAtomic(path, text);
}

function trustAdvice(host: Host, path: string, project: boolean, launcher: string): string[] {
  const cmd = delegatingCommand(host, launcher);
  if (host === "codex") {
    return [
      `Codex runs these entries only after you trust them: start codex, open /hooks, and trust the entries`,
      `from ${path} whose command is "${cmd}".`,
      ...(project ? [`Codex loads a project's .codex/ hooks only when that project is trusted in Codex.`] : []),
      `(For one-off automation that already vetted them: codex exec --dangerously-bypass-hook-trust.)`,
      `mind hooks still need their own trust: run mind-hooks review.`,
    ];
  }
  return [
    `Claude Code reads hooks when a session starts: restart running sessions (/hooks lists them).`,
    ...(project ? [`Claude Code asks to trust a project folder before running its hooks.`] : []),
    `mind hooks still need their own trust: run mind-hooks review.`,
  ];
}

/** Runs the command; returns the exit code. */
export async function installCommand({ options, positionals }: ParsedArgs): Promise<number> {
  // The command table has checked the host (src/cli/commands.ts).
  if (positionals.length !== 1 || !(HOSTS as readonly string[]).includes(positionals[0])) {
    throw new UsageError(`install takes one host: claude or codex (got ${positionals.length} arguments)`);
  }
  const host = positionals[0] as Host;
  const local = options.local === true;
  if (options.user && options.project !== undefined) throw new UsageError(`--user and --project exclude each other`);
  if (options.user && local) throw new UsageError(`--user and --local exclude each other`);
  if (local && host !== "claude") {
    throw new UsageError(`--local is for claude (.claude/settings.local.json); Codex has no local settings file`);
  }
  const launcher = (options.command as string | undefined) ?? "mind-hooks";
  if (launcher.trim() === "") throw new UsageError(`--command needs a non-empty launcher`);
  const uninstall = options.uninstall === true;
  const cwd = Deno.cwd();
  const env = Deno.env.toObject();
  const given = (options.project as string | undefined) ?? (local ? "." : undefined);
  const project = given === undefined ? undefined : await projectDir(given, cwd);
  const path = settingsPath(host, { project, local }, env, cwd);
  const name = HOST_NAMES[host];

  if (!uninstall && options.force !== true) {
    // The host starts the launcher for every event: one it cannot find would fail every hook call.
    const found = await findLauncher(launcher, env, Deno.build.os === "windows" ? "windows" : "posix");
    if ("problem" in found) {
      throw new UsageError(
        `${found.problem}, so ${name} could not start "${delegatingCommand(host, launcher)}": put mind-hooks on ` +
          `PATH, give --command /absolute/path/to/mind-hooks, or --force; nothing was written`,
      );
    }
  }

  const before = await readIfExists(path);
  let plan;
  try {
    plan = planEdit(host, before, { launcher, uninstall, file: path });
  } catch (e) {
    if (e instanceof SettingsError) throw new UsageError(e.message);
    throw e;
  }
  // A file that uninstalling leaves holding nothing goes away (install may have created it).
  const remove = uninstall && plan.changed && (plan.text === null || holdsNothing(plan.text));
  const after = remove ? null : plan.text;
  if (options["dry-run"]) {
    if (!plan.changed) {
      console.log(
        sanitize(`${path}: already ${uninstall ? "without" : "has"} the mind-hooks entries; nothing to change`),
      );
    } else {
      // The settings file may be a project's (a stranger's): its lines are shown escaped (SPEC §15).
      const diff = unifiedDiff(
        before ?? "",
        after ?? "",
        before === null ? "/dev/null" : path,
        after === null ? "/dev/null" : path,
      );
      await writeStdout(terminalLines(diff.split("\n")));
    }
    return 0;
  }
  if (!plan.changed) {
    console.log(sanitize(
      `${path}: ${name} ${
        uninstall ? "has no mind-hooks entries" : "already delegates to mind-hooks"
      }; nothing changed`,
    ));
    return 0;
  }
  if (after === null) {
    await Deno.remove(path);
    const folder = dirname(path);
    let folderRemoved = false;
    // Only an empty .claude/.codex folder, never a folder the user named in CLAUDE_CONFIG_DIR/CODEX_HOME.
    if (project !== undefined || !(host === "claude" ? env.CLAUDE_CONFIG_DIR : env.CODEX_HOME)) {
      folderRemoved = await Deno.remove(folder).then(() => true, () => false);
    }
    console.log(sanitize(
      `${path}: removed the mind-hooks entries (${plan.events.join(", ")}); the file held nothing else and was ` +
        `deleted${folderRemoved ? `, and so was the empty folder ${folder}` : ""}`,
    ));
    return 0;
  }
  await writeAtomic(path, after);
  if (uninstall) {
    console.log(sanitize(`${path}: removed the mind-hooks entries (${plan.events.join(", ")})`));
    return 0;
  }
  console.log(
    sanitize(`${path}: ${name} now delegates ${plan.events.join(", ")} to "${delegatingCommand(host, launcher)}"`),
  );
  for (const line of trustAdvice(host, path, project !== undefined, launcher)) console.log(sanitize(line));
  return 0;
}
