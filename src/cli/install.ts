/**
 * `mind-hooks install claude|codex|gemini|copilot [--user|--project DIR|--local] [--uninstall] [--dry-run]
 * [--command LAUNCHER] [--force] [--sync]`: registers (or removes) one delegating hook entry per event the host
 * supports, so that the host runs every mind hook through `mind-hooks dispatch --protocol <host>` (docs/hosts.md).
 * With `--sync`, only the events the hooks in reach use (and SessionStart always, SPEC §6 r3), and for Claude Code
 * only the tools their matchers name (src/adapter/sync.ts): a tool call nothing can match then starts no dispatch
 * at all. Every install is recorded in `$MIND_HOME/installs.json` (src/adapter/installs.ts), so that trust changes
 * re-sync `--sync` installs (src/adapter/resync.ts). A project install never writes through a link leaving the
 * project; a user install writes through the user's own link (src/adapter/settings_target.ts).
 *
 * Files (each host's `install` spec in src/adapter/): Claude Code `~/.claude/settings.json`
 * (`$CLAUDE_CONFIG_DIR/settings.json` when set), `<DIR>/.claude/settings.json`, or with `--local`
 * `<DIR>/.claude/settings.local.json`; Codex `~/.codex/hooks.json` (`$CODEX_HOME/hooks.json` when set) or
 * `<DIR>/.codex/hooks.json`; Gemini CLI `~/.gemini/settings.json` (under `$GEMINI_CLI_HOME` when set) or
 * `<DIR>/.gemini/settings.json`; Copilot CLI `~/.copilot/settings.json` (`$COPILOT_HOME/settings.json` when
 * set) or `<DIR>/.github/hooks/mind-hooks.json`. Everything else in the file is preserved; the write is atomic.
 * Installing refuses (exit 1, nothing written) a launcher the host could not start — neither an executable
 * absolute path nor on PATH — unless `--force`. The entries name the launcher by the absolute path found on
 * PATH (a link kept as a link; `--command` as given), never a bare name the agent's own PATH may lack, inside a
 * guard that blocks when it is missing or does not start (src/adapter/guard.ts, SPEC §6 r4). Uninstalling deletes a file left holding nothing, and then the
 * folders install made for it if they are left empty.
 * @module
 */
import { type ParsedArgs, UsageError } from "../util/args.ts";
import { absolute, dirname, join, normalizeKeyPath } from "../util/paths.ts";
import { ADAPTERS, type Host, HOST_DISPLAY_NAMES, HOST_EVENTS, hostEventName, HOSTS } from "../adapter/hosts.ts";
import { delegatingCommand, planEdit, SettingsError } from "../adapter/settings.ts";
import { unifiedDiff } from "../util/line_diff.ts";
import type { InstallScope } from "../adapter/host.ts";
import type { EventName } from "../events/names.ts";
import { EVENTS } from "../events/registry.ts";
import { findLauncher, launcherProgram } from "../util/launcher.ts";
import { shellQuote } from "../matching/tool_names.ts";
import { writeStdout } from "../util/stdio.ts";
import { sanitize, terminalLines } from "../util/terminal_text.ts";
import { syncedRegistrations } from "../adapter/resync.ts";
import { fromCliValues, type HomeSettings, NO_HOME, resolveSettings } from "../engine/settings.ts";
import { readSettingsText, settingsTarget, writeSettingsText } from "../adapter/settings_target.ts";
import { eventsOf, type InstallRecord, updateInstalls, withoutRecord, withRecord } from "../adapter/installs.ts";

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
  return events.map((e) => hostEventName(host, e) ?? e).join(", ");
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

async function readIfExists(path: string, shown: string): Promise<string | null> {
  try {
    return await readSettingsText(path);
  } catch (e) {
    throw new UsageError(`cannot read ${shown}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** The events a full (not `--sync`) install registers, with their matchers. */
function fullRegistration(host: Host): Map<EventName, string | null> {
  return new Map(HOST_EVENTS[host].map((e) => [e, EVENTS[e].matcher.kind === "tool" ? "*" : null]));
}

/**
 * Records the install in `$MIND_HOME/installs.json` (src/adapter/installs.ts), or forgets it after an
 * uninstall. A record that cannot be written loses no install: it is said, and `--sync` is then not kept
 * in step.
 */
async function record(home: string, file: string, rec: InstallRecord | null): Promise<void> {
  const updated = await updateInstalls(
    home,
    (installs) => rec === null ? withoutRecord(installs, file) : withRecord(installs, rec),
  );
  if (!updated.ok) {
    console.error(sanitize(
      `mind-hooks: note: ${home}/installs.json not updated (${updated.error}): ` +
        `trust changes will not re-sync this install`,
    ));
  }
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
      `--local is for claude (.claude/settings.local.json); ${HOST_DISPLAY_NAMES[host]} has no local settings file`,
    );
  }
  const givenCommand = options.command as string | undefined;
  if (givenCommand !== undefined && givenCommand.trim() === "") {
    throw new UsageError(`--command needs a non-empty launcher`);
  }
  const removing = options.uninstall === true;
  const cwd = Deno.cwd();
  const env = Deno.env.toObject();
  const given = (options.project as string | undefined) ?? (local ? "." : undefined);
  const project = given === undefined ? undefined : await projectDir(given, cwd);
  const scope: InstallScope = { project, local };
  const path = settingsPath(host, scope, env, cwd);
  const name = HOST_DISPLAY_NAMES[host];

  // Where the write really lands: a project install never writes through a link leaving the project
  // (issue 22 item 11); a user install writes through the user's own link. Decided before any read.
  const whereTo = await settingsTarget(path, project ?? null);
  if (!whereTo.ok) throw new UsageError(whereTo.error);
  const where = whereTo.value;
  const resolved = resolveSettings(fromCliValues({}), env, cwd);
  // Every install is recorded in the home (SPEC §6 r3): without one there is nowhere to record it (SPEC §1 r3).
  if (resolved.home === null) throw new UsageError(options.sync === true ? `--sync: ${NO_HOME}` : NO_HOME);
  const settings = resolved as HomeSettings;
  // `--sync` registers SessionStart always (SPEC §6 r3): a session start then says what will not run.
  let only: Map<EventName, string | null> | undefined;
  if (options.sync === true && !removing) {
    const found = await syncedRegistrations(host, project ?? cwd, settings);
    if (!found.ok) throw new UsageError(`--sync: ${found.error}`);
    only = found.value;
    if ([...only.keys()].every((e) => e === "SessionStart")) {
      console.log(sanitize(
        `${name}: no mind hook is configured in reach of here (--sync): only SessionStart is delegated, so that ` +
          `a session start can name hooks that will not run`,
      ));
    }
  }
  const uninstall = removing;
  // The host starts the launcher for every event, with its own PATH (an IDE's, a desktop launcher's): the
  // entries name it by the absolute path found on ours, a link kept as a link so that an upgrade behind it
  // keeps working (SPEC §6 r4). `--command` is written as given.
  let launcher = givenCommand ?? "mind-hooks";
  if (!uninstall) {
    const found = await findLauncher(launcher, env, Deno.build.os === "windows" ? "windows" : "posix");
    if (found.ok && givenCommand === undefined) launcher = shellQuote(found.value);
    if (!found.ok && options.force !== true) {
      throw new UsageError(
        `${found.error}, so ${name} could not start "${delegatingCommand(host, launcher)}": put mind-hooks on ` +
          `PATH, give --command /absolute/path/to/mind-hooks, or --force; nothing was written`,
      );
    }
  }

  const before = await readIfExists(where.target, path);
  let plan;
  try {
    plan = planEdit(host, before, { launcher, uninstall, file: path, scope, only: uninstall ? undefined : only });
  } catch (e) {
    if (e instanceof SettingsError) throw new UsageError(e.message);
    throw e;
  }
  // A file that uninstalling leaves holding nothing goes away (install may have created it) — unless it
  // is the user's link (a dotfile manager's): then the link stays, holding the empty form.
  const emptied = uninstall && plan.changed && (plan.text === null || holdsNothing(plan.text));
  const remove = emptied && !where.linked;
  const after = remove
    ? null
    : emptied && plan.text === null
    ? `${JSON.stringify(spec.emptyFile(scope), null, 2)}\n`
    : plan.text;
  const rec: InstallRecord | null = uninstall ? null : {
    host,
    file: path,
    project: project ?? null,
    local,
    launcher,
    sync: only !== undefined,
    searchFrom: project ?? cwd,
    events: eventsOf(only ?? fullRegistration(host)),
  };
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
    await record(settings.home, path, rec);
    return 0;
  }
  if (after === null) {
    await Deno.remove(path);
    await record(settings.home, path, null);
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
  await writeSettingsText(where, after);
  await record(settings.home, path, rec);
  if (uninstall) {
    console.log(sanitize(`${path}: removed the mind-hooks entries (${hostNames(host, plan.events)})`));
    return 0;
  }
  const delegated = only ? [...only.keys()] : plan.events;
  console.log(
    sanitize(
      `${path}: ${name} now delegates ${hostNames(host, delegated)} to "${delegatingCommand(host, launcher)}" ` +
        `(guarded: when ${launcherProgram(launcher)} is missing or does not start, its tool calls are blocked)`,
    ),
  );
  for (const line of spec.advice(path, project !== undefined, delegatingCommand(host, launcher))) {
    console.log(sanitize(line));
  }
  return 0;
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
