/**
 * The one table of commands (SPEC §1): what each does, the options it takes, the words that may
 * follow it, and how its module is loaded. `main.ts` routes and parses with it (once, for the
 * command and the sandbox plan alike), `--help` lists it, and the shell completions are generated
 * from it, so none of them can disagree. A command's module is imported only when it runs.
 * @module
 */
import { type OptionSpec, parseArgs, type ParsedArgs, UsageError } from "../util/args.ts";
import { engineCliOptions } from "../engine/settings.ts";
import { EVENT_NAMES } from "../events/names.ts";
import { HOST_NAMES } from "../events/types.ts";
import type { RunIo } from "../sandbox/launch.ts";

/** A command's body: the parsed command line and the run's I/O in, the exit code out. */
export type Command = (args: ParsedArgs, io: RunIo) => Promise<number>;

/** One command of the CLI. */
export type CommandEntry = {
  /** One line for `--help` and completion menus. */
  about: string;
  /** The usage line(s) `mind-hooks --help` shows. */
  usage: string;
  options: Record<string, OptionSpec>;
  /** Words the first argument may be (sub-commands, hosts, shells), and after each, the next word's. */
  words?: readonly string[];
  words2?: Readonly<Record<string, readonly string[]>>;
  /** A command whose actions take options of their own: the first argument picks the action's set. */
  actionOptions?: Readonly<Record<string, Record<string, OptionSpec>>>;
  /** Internal commands are neither listed nor completed. */
  internal?: boolean;
  load: () => Promise<Command>;
};

const HELP: Record<string, OptionSpec> = { help: { type: "boolean", short: "h", about: "show this command's help" } };

/** The options every configuration-reading command accepts (SPEC §1), and `--help`. */
export const COMMON_OPTIONS: Record<string, OptionSpec> = { ...engineCliOptions(), ...HELP };

const ENGINE = engineCliOptions();
const STATE_OPTIONS: Record<string, OptionSpec> = {
  ...COMMON_OPTIONS,
  all: { type: "boolean", about: "every hook that needs review" },
  layer: { type: "string", value: "text", about: "only hooks of this layer" },
};
const TRANSCRIPT_BASE: Record<string, OptionSpec> = {
  home: ENGINE.home,
  session: { type: "string", value: "text", about: "the session id" },
  agent: { type: "string", value: "text", about: "a subagent id" },
  ...HELP,
};

/** The shells `completions` writes a script for. */
export const SHELLS = ["bash", "zsh", "fish"] as const;

/** Every command, by name, in the order `--help` lists them. */
export const COMMANDS: ReadonlyMap<string, CommandEntry> = new Map<string, CommandEntry>([
  ["dispatch", {
    about: "one event JSON on stdin, one result JSON on stdout",
    usage: "dispatch            one event JSON on stdin -> one result JSON on stdout",
    options: {
      ...COMMON_OPTIONS,
      protocol: {
        type: "string",
        value: "protocol",
        about: `mind, ${HOST_NAMES.join(", ")}: the host's own hook format`,
      },
      event: { type: "string", value: "text", about: "the host's event, when its payload names none" },
    },
    load: async () => (await import("./dispatch.ts")).dispatchCommand,
  }],
  ["serve", {
    about: "JSON-RPC 2.0 over stdio",
    usage: "serve               JSON-RPC 2.0 over stdio, one message per line",
    options: COMMON_OPTIONS,
    load: async () => (await import("./serve.ts")).serveCommand,
  }],
  ["list", {
    about: "every hook with its status",
    usage: "list [--json]       every hook with its status and coverage label",
    options: { ...COMMON_OPTIONS, json: { type: "boolean", about: "as JSON" } },
    load: async () => (await import("./list.ts")).listCommand,
  }],
  ["review", {
    about: "interactive review of hooks",
    usage: "review              interactive review (trust, untrust, enable, disable)",
    options: COMMON_OPTIONS,
    load: async () => (await import("./review.ts")).reviewCommand,
  }],
  ["trust", {
    about: "trust the current content of hooks",
    usage: "trust KEY...|--all  trust the current content of hooks",
    options: STATE_OPTIONS,
    load: async () => (await import("./state.ts")).trustCommand,
  }],
  ["untrust", {
    about: "forget the trust of hooks",
    usage: "untrust|enable|disable KEY...",
    options: STATE_OPTIONS,
    load: async () => (await import("./state.ts")).untrustCommand,
  }],
  ["enable", {
    about: "enable hooks",
    usage: "",
    options: STATE_OPTIONS,
    load: async () => (await import("./state.ts")).enableCommand,
  }],
  ["disable", {
    about: "disable hooks",
    usage: "",
    options: STATE_OPTIONS,
    load: async () => (await import("./state.ts")).disableCommand,
  }],
  ["project", {
    about: "trust, untrust or show a project",
    usage: "project trust|untrust|status [DIR]",
    words: ["trust", "untrust", "status"],
    options: COMMON_OPTIONS,
    load: async () => (await import("./project.ts")).projectCommand,
  }],
  ["validate", {
    about: "check config files",
    usage: "validate [FILE...]  check config files",
    options: COMMON_OPTIONS,
    load: async () => (await import("./validate.ts")).validateCommand,
  }],
  ["transcript", {
    about: "session transcripts",
    usage: "transcript append|path|show ...",
    words: ["append", "path", "show"],
    options: { ...TRANSCRIPT_BASE },
    actionOptions: {
      append: {
        ...TRANSCRIPT_BASE,
        event: { type: "string", value: "text", about: "the event of an appended record" },
        turn: { type: "string", value: "text", about: "the turn id of an appended record" },
        actor: { type: "string", value: "text", about: "who wrote an appended record" },
      },
      path: TRANSCRIPT_BASE,
      show: { ...TRANSCRIPT_BASE, follow: { type: "boolean", short: "f", about: "keep printing new records" } },
    },
    load: async () => (await import("./transcript.ts")).transcriptCommand,
  }],
  ["session-end", {
    about: "end a session's async hooks and spill files",
    usage: "session-end --session ID",
    options: {
      home: ENGINE.home,
      "temp-dir": ENGINE["temp-dir"],
      session: { type: "string", value: "text", about: "the session id" },
      ...HELP,
    },
    load: async () => (await import("./session_end.ts")).sessionEndCommand,
  }],
  ["schema", {
    about: "print JSON Schemas",
    usage: "schema [input|output|config|result] [EVENT]",
    words: ["input", "output", "config", "result"],
    words2: { input: EVENT_NAMES, output: EVENT_NAMES },
    options: HELP,
    load: async () => (await import("./schema.ts")).schemaCommand,
  }],
  ["doctor", {
    about: "the sandbox's permission set, proven; checks",
    usage: "doctor              the sandbox's permission set, proven; shell, config and trust checks",
    options: COMMON_OPTIONS,
    load: async () => (await import("./doctor.ts")).doctorCommand,
  }],
  ["install", {
    about: "register mind-hooks in Claude Code, Codex, Gemini CLI or Copilot CLI",
    usage: `install ${HOST_NAMES.join("|")} [--user|--project DIR|--local] [--uninstall] [--dry-run] [--force]`,
    words: HOST_NAMES,
    options: {
      user: { type: "boolean", about: "the user's settings (default)" },
      project: { type: "string", value: "dir", about: "a project's settings" },
      local: { type: "boolean", about: "Claude Code's .claude/settings.local.json" },
      uninstall: { type: "boolean", about: "remove the entries" },
      "dry-run": { type: "boolean", about: "print the change; write nothing" },
      sync: { type: "boolean", about: "only the events and tools the configured hooks use" },
      command: { type: "string", value: "text", about: "how the host starts mind-hooks" },
      force: { type: "boolean", about: "register a launcher that is not on PATH" },
      ...HELP,
    },
    load: async () => (await import("./install.ts")).installCommand,
  }],
  ["completions", {
    about: "print a shell completion script",
    usage: "completions bash|zsh|fish   a shell completion script",
    words: SHELLS,
    options: HELP,
    load: async () => (await import("./completions.ts")).completionsCommand,
  }],
  ["__async-run", {
    about: "the detached owner of one-shot async hooks",
    usage: "",
    options: { home: ENGINE.home },
    internal: true,
    load: async () => (await import("./async_run.ts")).asyncRunCommand,
  }],
]);

/** `mind-hooks --help`: every listed command's usage line. */
export function usageLines(): string[] {
  return [...COMMANDS.values()].filter((c) => !c.internal && c.usage !== "").map((c) => `mind-hooks ${c.usage}`);
}

/**
 * Parses a command's arguments with its declared options (for a command with actions, the first
 * argument's own set). Throws {@link UsageError} for what the command would refuse anyway.
 */
export function parseCommand(
  name: string,
  entry: CommandEntry,
  args: readonly string[],
  lenient = false,
): ParsedArgs {
  if (!entry.actionOptions) return parseArgs(args, entry.options, lenient);
  const [action, ...rest] = args;
  if (action === undefined || action.startsWith("-")) return parseArgs(args, entry.options, lenient);
  const spec = Object.hasOwn(entry.actionOptions, action) ? entry.actionOptions[action] : undefined;
  if (!spec) {
    if (lenient) return { options: {}, positionals: [action] };
    throw new UsageError(`${name}: unknown action ${JSON.stringify(action)} (${entry.words?.join(", ")})`);
  }
  const parsed = parseArgs(rest, spec, lenient);
  return { options: parsed.options, positionals: [action, ...parsed.positionals] };
}

/** Parses the whole command line of command `name` (tests and tools; `main.ts` parses the same way). */
export function parseCommandLine(name: string, args: readonly string[]): ParsedArgs {
  const entry = COMMANDS.get(name);
  if (!entry) throw new UsageError(`unknown command ${JSON.stringify(name)} (see mind-hooks --help)`);
  return parseCommand(name, entry, args);
}
