/**
 * The mind-hooks command line (SPEC §1), behind the entry point `main.ts`. The command line is parsed
 * once, against the command's declared options (src/cli/commands.ts); the sandbox plans this run from
 * that parse and the command runs with it. Each command's module is imported only when that command
 * runs, so `dispatch` pays for nothing else.
 *
 * `main.ts` loads this module from source for every command but `dispatch`, which it loads from the
 * pre-built bundle of this module (src/generated/dispatch_bundle.js, `deno task bundle:gen`).
 *
 * Exit codes: 0 done; 1 bad input or usage (one `mind-hooks: …` line on stderr); 2 internal error.
 * @module
 */
import { UsageError } from "../util/args.ts";
import { COMMANDS, parseCommand, usageLines } from "./commands.ts";
import { runInSandbox } from "../sandbox/launch.ts";
import { HOST_NAMES } from "../events/types.ts";
import { messageLine, sanitize } from "../util/terminal_text.ts";
import denoJson from "../../deno.json" with { type: "json" };

/** The version printed by `--version` (from deno.json, the one place it is kept). */
export const VERSION: string = denoJson.version;

const HELP = `mind-hooks ${VERSION} — the lifecycle-hooks engine of the mind agent CLI

Usage:
${usageLines().map((l) => `  ${l}`).join("\n")}
  mind-hooks --version | --help | COMMAND --help

Common options: --home DIR, --cwd DIR, --profile NAME, -c KEY=VALUE, --hooks-file FILE,
  --requirements FILE, --temp-dir DIR, --dangerously-bypass-hook-trust`;

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
    const entry = COMMANDS.get(name);
    if (!entry) throw new UsageError(`unknown command ${JSON.stringify(name)} (see mind-hooks --help)`);
    const parsed = parseCommand(name, entry, rest);
    // SPEC §15: the command runs in a Worker holding only this run's permissions (src/sandbox/).
    return await runInSandbox(name, parsed, async (io) => await (await entry.load())(parsed, io), import.meta.url);
  } catch (e) {
    // Registered as a host's hook, a non-zero exit may block the host's action (Claude Code and Codex
    // block on 2): when mind-hooks cannot do its job there, the host's action must proceed (SPEC §1:
    // hooks never take the agent down).
    const adapter = isAdapterMode(name, rest);
    if (e instanceof UsageError) {
      // Messages name paths, keys and values from the input: escaped for the terminal (SPEC §15).
      console.error(`mind-hooks: ${sanitize(e.message)}`);
      return adapter ? 0 : 1;
    }
    console.error(`mind-hooks: internal error: ${sanitize(messageLine(e))}`);
    return adapter ? 0 : 2;
  }
}

/** True for `dispatch --protocol <host>`, where the host reads our exit code as its own. */
function isAdapterMode(name: string | undefined, rest: string[]): boolean {
  const entry = name === "dispatch" ? COMMANDS.get(name) : undefined;
  if (!entry) return false;
  const protocol = parseCommand(name!, entry, rest, true).options.protocol;
  return (HOST_NAMES as readonly unknown[]).includes(protocol);
}

// The sandbox Worker's main module is this module (src/sandbox/launch.ts): there it runs the command.
if (import.meta.main) {
  Deno.exitCode = await main(Deno.args);
}
