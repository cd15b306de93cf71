/**
 * The mind-hooks command line (SPEC §1). Each command's module is imported
 * only when that command runs, so `dispatch` pays for nothing else.
 *
 * Exit codes: 0 done; 1 bad input or usage (one `mind-hooks: …` line on
 * stderr); 2 internal error.
 * @module
 */
import { UsageError } from "./src/cli/args.ts";
import { runInSandbox } from "./src/sandbox/launch.ts";
import { sanitize } from "./src/util/terminal_text.ts";
import denoJson from "./deno.json" with { type: "json" };

/** The version printed by `--version` (from deno.json, the one place it is kept). */
export const VERSION: string = denoJson.version;

const HELP = `mind-hooks ${VERSION} — the lifecycle-hooks engine of the mind agent CLI

Usage:
  mind-hooks dispatch            one event JSON on stdin -> one result JSON on stdout
  mind-hooks serve               JSON-RPC 2.0 over stdio, one message per line
  mind-hooks list [--json]       every hook with its status and coverage label
  mind-hooks review              interactive review (trust, untrust, enable, disable)
  mind-hooks trust KEY...|--all  trust the current content of hooks
  mind-hooks untrust|enable|disable KEY...
  mind-hooks project trust|untrust|status [DIR]
  mind-hooks validate [FILE...]  check config files
  mind-hooks transcript append|path|show ...
  mind-hooks session-end --session ID
  mind-hooks schema [input|output|config|result] [EVENT]
  mind-hooks doctor              the sandbox's permission set, proven; shell, config and trust checks
  mind-hooks install claude|codex [--user|--project DIR|--local] [--uninstall] [--dry-run] [--force]
  mind-hooks completions bash|zsh|fish   a shell completion script
  mind-hooks --version | --help | COMMAND --help

Common options: --home DIR, --cwd DIR, --profile NAME, -c KEY=VALUE, --hooks-file FILE,
  --requirements FILE, --temp-dir DIR, --dangerously-bypass-hook-trust`;

type Command = (args: string[]) => Promise<number>;

const COMMANDS: Record<string, () => Promise<Command>> = {
  dispatch: async () => (await import("./src/cli/dispatch.ts")).dispatchCommand,
  trust: async () => (await import("./src/cli/state.ts")).trustCommand,
  untrust: async () => (await import("./src/cli/state.ts")).untrustCommand,
  enable: async () => (await import("./src/cli/state.ts")).enableCommand,
  disable: async () => (await import("./src/cli/state.ts")).disableCommand,
  list: async () => (await import("./src/cli/list.ts")).listCommand,
  project: async () => (await import("./src/cli/project.ts")).projectCommand,
  validate: async () => (await import("./src/cli/validate.ts")).validateCommand,
  schema: async () => (await import("./src/cli/schema.ts")).schemaCommand,
  transcript: async () => (await import("./src/cli/transcript.ts")).transcriptCommand,
  "session-end": async () => (await import("./src/cli/session_end.ts")).sessionEndCommand,
  review: async () => (await import("./src/cli/review.ts")).reviewCommand,
  serve: async () => (await import("./src/cli/serve.ts")).serveCommand,
  install: async () => (await import("./src/cli/install.ts")).installCommand,
  "__async-run": async () => (await import("./src/cli/async_run.ts")).asyncRunCommand,
  doctor: async () => (await import("./src/cli/doctor.ts")).doctorCommand,
  completions: async () => (await import("./src/cli/completions.ts")).completionsCommand,
};

/** Runs the CLI with `args`; returns the exit code. Never throws. */
export async function main(args: string[]): Promise<number> {
  const [name, ...rest] = args;
  try {
    if (name === undefined || name === "--help" || name === "-h" || name === "help") {
      console.log(HELP);
      return name === undefined ? 1 : 0;
    }
    if (name === "--version" || name === "-V") {
      console.log(`mind-hooks ${VERSION}`);
      return 0;
    }
    // An own property only: `mind-hooks toString` is an unknown command, not Object.prototype's.
    const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
    if (!load) throw new UsageError(`unknown command ${JSON.stringify(name)} (see mind-hooks --help)`);
    // SPEC §15: the command runs in a Worker holding only this run's permissions (src/sandbox/).
    return await runInSandbox(name, rest, async () => await (await load())(rest));
  } catch (e) {
    if (e instanceof UsageError) {
      // Messages name paths, keys and values from the input: escaped for the terminal (SPEC §15).
      console.error(`mind-hooks: ${sanitize(e.message)}`);
      return 1;
    }
    const msg = e instanceof Error ? e.message : String(e);
    console.error(`mind-hooks: internal error: ${sanitize(msg.split("\n", 1)[0])}`);
    // Registered as a Claude Code or Codex hook, exit 2 would block every tool call of the host:
    // when the engine itself fails there, the host's action must proceed (SPEC §1: hooks never
    // take the agent down).
    return isAdapterMode(args) ? 0 : 2;
  }
}

/** True for `dispatch --protocol claude|codex`, where the host reads our exit code as its own. */
function isAdapterMode(args: string[]): boolean {
  const i = args.findIndex((a) => a === "--protocol" || a.startsWith("--protocol="));
  if (i < 0) return false;
  const value = args[i].includes("=") ? args[i].slice(args[i].indexOf("=") + 1) : args[i + 1];
  return value === "claude" || value === "codex";
}

/**
 * `deno task mind-hooks` runs in the directory of deno.json; the task passes the directory it was
 * started from, so that cwd-relative commands (`project trust`, `list`, `trust KEY`) behave as the
 * compiled binary does. The variable is removed so that hooks never see it.
 */
function restoreTaskCwd(): void {
  const from = Deno.env.get("MIND_HOOKS_INVOKED_FROM");
  if (from === undefined) return;
  Deno.env.delete("MIND_HOOKS_INVOKED_FROM");
  try {
    if (from) Deno.chdir(from);
  } catch {
    // The directory vanished: stay where the task put us.
  }
}

if (import.meta.main) {
  restoreTaskCwd();
  Deno.exitCode = await main(Deno.args);
}
