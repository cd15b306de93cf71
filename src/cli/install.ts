/**
 * `mind-hooks install claude|codex|gemini|copilot [--user|--project DIR|--local] [--uninstall] [--dry-run]
 * [--command LAUNCHER] [--force] [--sync]`: registers (or removes) one delegating hook entry per event the host
 * supports, so that the host runs every mind hook through `mind-hooks dispatch --protocol <host>` (README: "Claude
 * Code and Codex", "Gemini CLI and Copilot CLI"). With `--sync`, only the events the hooks in reach use, and for
 * Claude Code only the tools their matchers name (src/adapter/sync.ts): a tool call nothing can match then starts
 * no dispatch at all.
 *
 * Files (each host's `install` spec in src/adapter/): Claude Code `~/.claude/settings.json`
 * (`$CLAUDE_CONFIG_DIR/settings.json` when set), `<DIR>/.claude/settings.json`, or with `--local`
 * `<DIR>/.claude/settings.local.json`; Codex `~/.codex/hooks.json` (`$CODEX_HOME/hooks.json` when set) or
 * `<DIR>/.codex/hooks.json`; Gemini CLI `~/.gemini/settings.json` (under `$GEMINI_CLI_HOME` when set) or
 * `<DIR>/.gemini/settings.json`; Copilot CLI `~/.copilot/settings.json` (`$COPILOT_HOME/settings.json` when
 * set) or `<DIR>/.github/hooks/mind-hooks.json`. Everything else in the file is preserved; the write is atomic.
 * Installing refuses (exit 1, nothing written) a launcher the host could not start — neither an executable
 * absolute path nor on PATH — unless `--force`: a missing program fails every hook call, and Gemini CLI and
 * Copilot CLI then block every tool call. Uninstalling deletes a file left holding nothing, and then the
 * folders install made for it if they are left empty.
 * @module
 */
import { type ParsedArgs, UsageError } from "../util/args.ts";
import { absolute, dirname, join, normalizeKeyPath } from "../util/paths.ts";
import { writeFileAtomic } from "../util/atomic_file.ts";
import { ADAPTERS, type Host, HOST_NAMES, HOSTS } from "../adapter/hosts.ts";
import { delegatingCommand, planEdit, SettingsError } from "../adapter/settings.ts";
import { unifiedDiff } from "../util/line_diff.ts";
import type { InstallScope } from "../adapter/host.ts";
import type { EventName } from "../events/names.ts";
import { EVENTS } from "../events/registry.ts";
import { findLauncher } from "../util/launcher.ts";
import { writeStdout } from "../util/stdio.ts";
import { sanitize, terminalLines } from "../util/terminal_text.ts";
import { neededRegistrations } from "../adapter/sync.ts";
import { loadCatalog } from "../config/discovery.ts";
import { configOptionsOf, fromCliValues, type HomeSettings, NO_HOME, resolveSettings } from "../engine/settings.ts";

const clean = (p: string) => normalizeKeyPath(p, Deno.build.os === "windows" ? "windows" : "posix");

/** Where `host` reads the hooks file that `install` edits (`project` already absolute and clean). */
export function settingsPath(
  host: Host,
  scope: InstallScope,
  env: Record<string, string | undefined>,
  cwd: string,
): string {
  const spec = ADAPTERS[host].install;
  return clean(join(spec.folder(scope, env, cwd).path, spec.file(scope)));
}

/** The host's own names of `events` (Gemini CLI's BeforeTool for PreToolUse…), for messages. */
function hostNames(host: Host, events: readonly EventName[]): string {
  return events.map((e) => EVENTS[e].hosts[host]?.event ?? e).join(", ");
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

/** Runs the command; returns the exit code. */
export async function installCommand({ options, positionals }: ParsedArgs): Promise<number> {
  // The command table has checked the host (src/cli/commands.ts).
  if (positionals.length !== 1 || !(HOSTS as readonly string[]).includes(positionals[0])) {
    throw new UsageError(
      `install takes one host: ${HOSTS.slice(0, -1).join(", ")} or ${
        HOSTS.at(-1)
      } (got ${positionals.length} arguments)`,
    );
  }
  const host = positionals[0] as Host;
  const spec = ADAPTERS[host].install;
  const local = options.local === true;
  if (options.user && options.project !== undefined) throw new UsageError(`--user and --project exclude each other`);
  if (options.user && local) throw new UsageError(`--user and --local exclude each other`);
  if (local && !spec.local) {
    throw new UsageError(
      `--local is for claude (.claude/settings.local.json); ${HOST_NAMES[host]} has no local settings file`,
    );
  }
  const launcher = (options.command as string | undefined) ?? "mind-hooks";
  if (launcher.trim() === "") throw new UsageError(`--command needs a non-empty launcher`);
  const removing = options.uninstall === true;
  const cwd = Deno.cwd();
  const env = Deno.env.toObject();
  const given = (options.project as string | undefined) ?? (local ? "." : undefined);
  const project = given === undefined ? undefined : await projectDir(given, cwd);
  const scope: InstallScope = { project, local };
  const path = settingsPath(host, scope, env, cwd);
  const name = HOST_NAMES[host];

  // `--sync` with no hook in reach delegates nothing: it removes the entries, as uninstalling does.
  const only = options.sync === true && !removing
    ? await syncedRegistrations(host, project ?? cwd, env, cwd)
    : undefined;
  const uninstall = removing || only?.size === 0;
  if (only?.size === 0) console.log(sanitize(`${name}: no mind hook is configured in reach of here (--sync)`));
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
    plan = planEdit(host, before, { launcher, uninstall, file: path, scope, only: uninstall ? undefined : only });
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
    const removed = await removeEmptyFolders(path, spec.folder(scope, env, cwd));
    console.log(sanitize(
      `${path}: removed the mind-hooks entries (${hostNames(host, plan.events)}); the file held nothing else and was ` +
        `deleted${
          removed.length === 1
            ? `, and so was the empty folder ${removed[0]}`
            : removed.length > 1
            ? `, and so were the empty folders ${removed.join(", ")}`
            : ""
        }`,
    ));
    return 0;
  }
  await writeAtomic(path, after);
  if (uninstall) {
    console.log(sanitize(`${path}: removed the mind-hooks entries (${hostNames(host, plan.events)})`));
    return 0;
  }
  const delegated = only ? [...only.keys()] : plan.events;
  console.log(
    sanitize(
      `${path}: ${name} now delegates ${hostNames(host, delegated)} to "${delegatingCommand(host, launcher)}"`,
    ),
  );
  for (const line of spec.advice(path, project !== undefined, delegatingCommand(host, launcher))) {
    console.log(sanitize(line));
  }
  return 0;
}

/**
 * What `install --sync` registers: the events (and matchers) of the hooks configured now, as discovery
 * loads them from `searchFrom` with the environment's home, profile and requirements (any trust status:
 * trusting a hook later needs no new sync).
 */
async function syncedRegistrations(
  host: Host,
  searchFrom: string,
  env: Record<string, string | undefined>,
  cwd: string,
): Promise<ReadonlyMap<EventName, string | null>> {
  const settings = resolveSettings(fromCliValues({}), env, cwd);
  if (settings.home === null) throw new UsageError(`--sync: ${NO_HOME}`);
  const catalog = await loadCatalog(configOptionsOf(settings as HomeSettings, searchFrom));
  if ("error" in catalog) throw new UsageError(`--sync: ${catalog.error}`);
  return neededRegistrations(host, catalog.handlers);
}

/**
 * Removes the folders between the deleted `file` and the host's folder (that one included) while they are
 * empty — never a folder the user named (CLAUDE_CONFIG_DIR, CODEX_HOME, COPILOT_HOME). Returns those removed.
 */
async function removeEmptyFolders(file: string, folder: { path: string; named: boolean }): Promise<string[]> {
  const top = clean(folder.path);
  const removed: string[] = [];
  for (let dir = clean(dirname(file)); dir.startsWith(top); dir = clean(dirname(dir))) {
    if (dir === top && folder.named) break;
    if (!await Deno.remove(dir).then(() => true, () => false)) break;
    removed.push(dir);
    if (dir === top) break;
  }
  return removed;
}
