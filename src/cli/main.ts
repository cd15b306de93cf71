/**
 * The mind-hooks command line (SPEC §1), behind the entry point `main.ts`. The command line is parsed
 * once, against the command's declared options (src/cli/commands.ts); the sandbox plans this run from
 * that parse and the command runs with it. Each command's module is imported only when that command
 * runs, so `dispatch` pays for nothing else.
 *
 * `main.ts` loads this module from its pre-built bundle (src/generated/dispatch_bundle.js, `deno task
 * bundle:gen`), or from source with `MIND_HOOKS_BUNDLE=off`.
 *
 * Exit codes, the same for every command (`EXIT_CODES` in src/cli/commands.ts): 0 done; 1 bad
 * input or usage (one `mind-hooks: …` line on stderr, and the usage line when the command was called
 * without something it needs; nothing on stdout); 2 internal error.
 * @module
 */
import { hoistLeadingOptions, MissingArgument, UsageError } from "../util/args.ts";
import { COMMANDS, parseCommand, unknownCommand } from "./commands.ts";
import { insideSandbox, runInSandbox } from "../sandbox/launch.ts";
import { isHost } from "../adapter/host_names.ts";
import { messageLine, sanitize } from "../util/terminal_text.ts";
import { engineCliOptions, NO_HOME, resolveHome } from "../engine/settings.ts";
import denoJson from "../../deno.json" with { type: "json" };

/** The version printed by `--version` (from deno.json, the one place it is kept). */
export const VERSION: string = denoJson.version;

/** The help texts, loaded only to print one: `dispatch` never pays for them. */
const help = () => import("./help.ts");

/** Runs the CLI with `args`; returns the exit code. Never throws. */
export async function main(args: string[]): Promise<number> {
  // The common options may come before the command too (`mind-hooks --home X list`), as git takes them.
  const [name, ...rest] = commandFirst(args);
  try {
    if (name === undefined) {
      // Called with nothing to do: a usage error like any other, so the help goes where errors go.
      console.error((await help()).mainHelp(VERSION));
      return 1;
    }
    if (name === "--help" || name === "-h" || name === "help") {
      const topic = name === "help" ? rest[0] : undefined;
      const entry = topic === undefined ? undefined : COMMANDS.get(topic);
      if (topic !== undefined && (!entry || entry.internal)) throw unknownCommand(topic);
      const text = await help();
      console.log(entry ? text.commandHelp(topic!, entry) : text.mainHelp(VERSION));
      return 0;
    }
    if (name === "--version" || name === "-V") {
      console.log(`mind-hooks ${VERSION}`);
      return 0;
    }
    const entry = COMMANDS.get(name);
    if (!entry) throw unknownCommand(name);
    const parsed = parseCommand(name, entry, rest);
    if (parsed.options.help && !entry.internal) {
      console.log((await help()).commandHelp(name, entry));
      return 0;
    }
    // The launcher checks them; the Worker must not wait before it listens for the launcher's message.
    if (!insideSandbox()) {
      await checkCwd(parsed.options.cwd);
      checkHome(name, entry.options, parsed.options);
    }
    // SPEC §15: the command runs in a Worker holding only this run's permissions (src/sandbox/).
    return await runInSandbox(
      name,
      entry.sandbox,
      parsed,
      async (io) => await (await entry.load())(parsed, io),
      import.meta.url,
    );
  } catch (e) {
    // Registered as a host's hook, a non-zero exit may block the host's action (Claude Code and Codex
    // block on 2): when mind-hooks cannot do its job there, the host's action must proceed (SPEC §1:
    // hooks never take the agent down).
    const adapter = isAdapterMode(name, rest);
    if (e instanceof UsageError) {
      // Messages name paths, keys and values from the input: escaped for the terminal (SPEC §15).
      console.error(`mind-hooks: ${sanitize(e.message)}`);
      const entry = name === undefined ? undefined : COMMANDS.get(name);
      if (e instanceof MissingArgument && entry) console.error(`usage: ${(await help()).usageLine(name!, entry)}`);
      return adapter ? 0 : 1;
    }
    console.error(`mind-hooks: internal error: ${sanitize(messageLine(e))}`);
    return adapter ? 0 : 2;
  }
}

/**
 * `--cwd DIR` must name a folder: searching from one that does not exist would quietly find no
 * project (and list 0 hooks).
 */
async function checkCwd(cwd: unknown): Promise<void> {
  if (typeof cwd !== "string") return;
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(cwd);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) throw new UsageError(`--cwd ${cwd}: no such directory`);
    return; // not ours to judge (permissions): the command meets it and says so
  }
  if (!info.isDirectory) throw new UsageError(`--cwd ${cwd}: not a directory`);
}

/**
 * SPEC §1 r3: the home is never taken from the cwd. A bad `--home`/`$MIND_HOME` (empty, relative) is a
 * usage error of every command (resolveHome throws it); with no home at all, every command that reads
 * one but `dispatch` — which then runs the managed and CLI layers only, writing nothing — stops here.
 */
function checkHome(name: string, declared: Record<string, unknown>, options: Record<string, unknown>): void {
  if (!Object.hasOwn(declared, "home")) return;
  const given = typeof options.home === "string" ? options.home : undefined;
  if (resolveHome(given, Deno.env.toObject()) === null && name !== "dispatch") throw new UsageError(NO_HOME);
}

/** `args` with the common options written before the command moved after it (the sandbox re-runs the same). */
function commandFirst(args: readonly string[]): string[] {
  return hoistLeadingOptions(args, engineCliOptions());
}

/** True for `dispatch --protocol <host>`, where the host reads our exit code as its own. */
function isAdapterMode(name: string | undefined, rest: string[]): boolean {
  const entry = name === "dispatch" ? COMMANDS.get(name) : undefined;
  if (!entry) return false;
  const protocol = parseCommand(name!, entry, rest, true).options.protocol;
  return isHost(protocol);
}

// The sandbox Worker's main module is this module (src/sandbox/launch.ts): there it runs the command.
if (import.meta.main) {
  Deno.exitCode = await main(Deno.args);
}
