/**
 * The one table of commands (SPEC §1): what each does, the options it takes, the words that may
 * follow it, its help text, and how its module is loaded. `main.ts` routes and parses with it (once,
 * for the command and the sandbox plan alike), `--help` is printed from it (src/cli/help.ts), and
 * the shell completions are generated from it, so none of them can disagree. A command's module is
 * imported only when it runs.
 * @module
 */
import { MissingArgument, type OptionSpec, parseArgs, type ParsedArgs, UsageError } from "../util/args.ts";
import { engineCliOptions } from "../engine/settings.ts";
import { EVENT_NAMES } from "../events/names.ts";
import { HOSTS } from "../adapter/host_names.ts";
import { TRANSCRIPT_EVENTS } from "../session/transcript_events.ts";
import { didYouMean } from "../util/suggest.ts";
import type { RunIo } from "../sandbox/launch.ts";
import type { SandboxNeeds } from "../sandbox/needs.ts";
import type { SandboxNeeded } from "../engine/types.ts";

/**
 * A command's body: the parsed command line and the run's I/O in, the exit code out — or, on the
 * dispatch fast path (`io.strangers === "refuse"`), that the run needs the sandbox Worker.
 */
export type Command = (args: ParsedArgs, io: RunIo) => Promise<number | SandboxNeeded>;

/** One command of the CLI. */
export type CommandEntry = {
  /** One line for `mind-hooks --help` and completion menus. */
  about: string;
  /** The command's syntax after `mind-hooks NAME` (`[--json]`, `trust|untrust|status [DIR]`). */
  usage: string;
  /** What `NAME --help` says between the usage line and the options: standalone, for people with the binary only. */
  help: string;
  options: Record<string, OptionSpec>;
  /** Words the first argument may be (sub-commands, hosts, shells), and after each, the next word's. */
  words?: readonly string[];
  words2?: Readonly<Record<string, readonly string[]>>;
  /** The first argument is required and must be one of `words`; this names it in messages (`an action`). */
  needsWord?: string;
  /** A command whose actions take options of their own: the first argument picks the action's set. */
  actionOptions?: Readonly<Record<string, Record<string, OptionSpec>>>;
  /** Internal commands are neither listed nor completed. */
  internal?: boolean;
  /** What it needs from its sandbox: the plan of its runs is made from this (src/sandbox/plan.ts). */
  sandbox: SandboxNeeds;
  load: () => Promise<Command>;
};

const HELP: Record<string, OptionSpec> = { help: { type: "boolean", short: "h", about: "show this command's help" } };

/** The options every configuration-reading command accepts (SPEC §1), and `--help`. */
export const COMMON_OPTIONS: Record<string, OptionSpec> = { ...engineCliOptions(), ...HELP };

const ENGINE = engineCliOptions();
const STATE_OPTIONS: Record<string, OptionSpec> = {
  ...COMMON_OPTIONS,
  all: { type: "boolean", about: "every hook (trust: every hook that needs review)" },
  layer: { type: "string", value: "text", arg: "LAYER", about: "with --all: only hooks of this layer" },
};
const SESSION: OptionSpec = { type: "string", value: "text", arg: "ID", about: "the session id" };
const TRANSCRIPT_BASE: Record<string, OptionSpec> = {
  home: ENGINE.home,
  session: SESSION,
  agent: { type: "string", value: "text", arg: "ID", about: "a subagent id" },
  ...HELP,
};

/** The shells `completions` writes a script for. */
export const SHELLS = ["bash", "zsh", "fish"] as const;

/** How a hook is named on the command line: its key, or any unique tail of it. */
const KEYS_HELP = `KEY is a hook's key as mind-hooks list prints it
(layer:file:Event:group:handler), or any tail of it that names one hook only:
PreToolUse:0:0, hooks.json:PreToolUse:0:0. An ambiguous tail lists the keys it
could mean; a key given twice counts once.`;

/** One row of the exit-code table: every command follows it (`mind-hooks --help`, the README). */
export type ExitCode = { code: string; meaning: string };

/** The exit codes of every command. */
export const EXIT_CODES: readonly ExitCode[] = [
  { code: "0", meaning: "done; for dispatch whatever the hooks decided (dispatch --protocol: always 0)" },
  {
    code: "1",
    meaning: 'usage or bad input: one "mind-hooks: ..." line on stderr (with the usage line when something ' +
      "needed is missing), nothing on stdout; validate: a file has an error; doctor: something to fix",
  },
  { code: "2", meaning: "internal error (transcript append: the home is not writable)" },
  {
    code: "129, 130, 143",
    meaning: "review ended by SIGHUP, Ctrl-C or SIGTERM; dispatch (--protocol too) ended by Ctrl-C or SIGTERM, " +
      "after killing its running hooks, with no result",
  },
];

/** Every command, by name, in the order `--help` lists them. */
export const COMMANDS: ReadonlyMap<string, CommandEntry> = new Map<string, CommandEntry>([
  ["dispatch", {
    about: "one event JSON on stdin, one result JSON on stdout",
    usage: "[--explain] [--pretty] [--protocol HOST] [options] < event.json",
    help: `Reads one event JSON object on stdin, runs the trusted hooks that match it, and
prints one result JSON object on stdout: the decision, the context for the model,
messages for the user, and one record per hook that matched.

--explain prints on stderr why each hook of the event ran or not: the files read,
layer by layer, then one line per hook with its key, matcher result, trust status,
outcome, duration and how its output was read. stdout stays the exact result;
--pretty indents it.

--protocol claude|codex|gemini|copilot reads the host's own hook input and answers in
that host's own hook output format (what "mind-hooks install" registers); the default
is mind. --event NAME names the host's event when its payload does not (Copilot CLI's
camelCase events).`,
    options: {
      ...COMMON_OPTIONS,
      explain: { type: "boolean", about: "why each hook ran or not, on stderr" },
      pretty: { type: "boolean", about: "indent the result JSON" },
      protocol: {
        type: "string",
        value: "protocol",
        arg: "HOST",
        about: `mind, ${HOSTS.join(", ")}: the host's own hook format`,
      },
      event: { type: "string", value: "text", arg: "NAME", about: "the host's event, when its payload names none" },
    },
    sandbox: { reads: "config", engine: true, mcp: "net", pins: "trusted-project", event: true },
    load: async () => (await import("./dispatch_command.ts")).dispatchCommand,
  }],
  ["serve", {
    about: "JSON-RPC 2.0 over stdio",
    usage: "",
    help: `JSON-RPC 2.0 over stdin/stdout, one message per line, for hosts that keep the
engine running.

Methods:
  dispatch            params: the event object [+ "options"] -> the dispatch result
  transcript/append   params: {session_id, event, turn_id?, actor?, payload, agent_id?} -> {path}
  session/end         params: {session_id} -> {killed}: async hooks killed, spilled outputs deleted
  hooks/list          params: {options?} -> the hooks catalog as data
  shutdown            ends every session, closes MCP servers, replies, exits 0
Notification to the host: hooks/asyncCompleted {session_id, results}

A request's "options" (home, cwd, profile, config[], hooksFile[], requirements,
tempDir, dangerouslyBypassHookTrust) override the options given here.`,
    options: COMMON_OPTIONS,
    sandbox: {
      reads: "config",
      engine: true,
      mcp: "net-and-programs",
      readAnywhere: "each serve request names its own cwd, so the project search may start anywhere",
    },
    load: async () => (await import("./serve.ts")).serveCommand,
  }],
  ["list", {
    about: "every hook with its status",
    usage: "[--json]",
    help: `Lists every hook, grouped by layer and file: key, event, matcher, what runs,
status (managed, trusted, modified, untrusted), enabled, coverage label
(client-full, server-approval-only, approval-events, client-only), and the
files it pins (what a trust records of the scripts it runs); problems that lose
hooks come first, the discovery warnings last. --json prints the same as one
JSON object.`,
    options: { ...COMMON_OPTIONS, json: { type: "boolean", about: "as JSON" } },
    sandbox: { reads: "config", pins: "trusted-project" },
    load: async () => (await import("./list.ts")).listCommand,
  }],
  ["logs", {
    about: "what hooks did: the observation log",
    usage: "[--follow] [--session ID] [--key KEY] [--event EVENT] [--status S] [--since TIME] [--json]",
    help: `Prints the observation log: one line per hook run (time, event, status, duration,
key, exit code, reason, session) and per configuration warning, oldest first,
from $MIND_HOME/logs/hooks.jsonl and its rotated files. --json prints the records
as JSON lines. --follow keeps printing new records until interrupted.

--key takes a hook's key or any tail of it (PreToolUse:0:0); --event an event name;
--status one or more run statuses (failed,blocked); --since an ISO-8601 time
(2026-01-02T10:00:00Z) or a duration back from now (30s, 10m, 2h, 1d, 1w).`,
    options: {
      home: ENGINE.home,
      follow: { type: "boolean", short: "f", about: "keep printing new records" },
      session: { ...SESSION, about: "only this session's records" },
      key: { type: "string", value: "text", arg: "KEY", about: "only this hook's runs (a key or a tail of one)" },
      event: { type: "string", value: "text", arg: "EVENT", about: "only runs of this event (PreToolUse)" },
      status: { type: "string", value: "text", arg: "STATUS", about: "only runs with this status (failed,blocked)" },
      since: {
        type: "string",
        value: "text",
        arg: "TIME",
        about: "only records since TIME (ISO-8601, or 10m, 2h, 1d)",
      },
      json: { type: "boolean", about: "the records as JSON lines" },
      ...HELP,
    },
    sandbox: { reads: "log" },
    load: async () => (await import("./logs.ts")).logsCommand,
  }],
  ["review", {
    about: "interactive review of hooks",
    usage: "",
    help: `A full-screen review of every hook: its definition, file and line, status,
coverage, last run, warnings, pinned files, and what changed in a modified hook
(shown first). Keys:
  up/down, j/k      move between hooks      g/G        first / last hook
  PgUp/PgDn         page the details        Home/End   top / end of the details
  [ ]               scroll the details      w          the warnings
  t trust   u untrust   e enable   d disable   A trust all needing review
  p trust or untrust the project   r reload from disk   ? help   q quit
On a hook awaiting trust, r also replays the events your sessions recorded
([hooks] record = true) with that hook trusted, and shows what it would change.
t and A first show exactly what will be trusted: y or Enter trusts it, n or Esc
cancels. Each action is written to the user config.toml at once.

Needs a terminal; elsewhere use mind-hooks list and mind-hooks trust KEY...`,
    options: COMMON_OPTIONS,
    // engine and throwaway: `r` replays recorded events with a hook trusted, in a copy of the project (SPEC §16).
    sandbox: { reads: "config", state: true, pins: "any-project", engine: true, throwaway: true },
    load: async () => (await import("./review.ts")).reviewCommand,
  }],
  ["trust", {
    about: "trust the current content of hooks",
    usage: "KEY...|--all [--layer LAYER]",
    help: `Trusts the current content of the given hooks (by its hash): they run from now on,
until their definition changes. Written to the user config.toml.

${KEYS_HELP}`,
    options: STATE_OPTIONS,
    sandbox: { reads: "config", state: true, pins: "trusted-project" },
    load: async () => (await import("./state.ts")).trustCommand,
  }],
  ["untrust", {
    about: "forget the trust of hooks",
    usage: "KEY...|--all [--layer LAYER]",
    help: `Forgets the trust of the given hooks: they no longer run. Written to the user config.toml.

${KEYS_HELP}`,
    options: STATE_OPTIONS,
    sandbox: { reads: "config", state: true },
    load: async () => (await import("./state.ts")).untrustCommand,
  }],
  ["enable", {
    about: "enable hooks",
    usage: "KEY...|--all [--layer LAYER]",
    help: `Enables the given hooks (the default): a trusted, enabled hook runs. Written to the user config.toml.

${KEYS_HELP}`,
    options: STATE_OPTIONS,
    sandbox: { reads: "config", state: true },
    load: async () => (await import("./state.ts")).enableCommand,
  }],
  ["disable", {
    about: "disable hooks",
    usage: "KEY...|--all [--layer LAYER]",
    help: `Disables the given hooks: they do not run, trusted or not; their trust is kept.
Written to the user config.toml.

${KEYS_HELP}`,
    options: STATE_OPTIONS,
    sandbox: { reads: "config", state: true },
    load: async () => (await import("./state.ts")).disableCommand,
  }],
  ["project", {
    about: "trust, untrust or show a project",
    usage: "trust|untrust|status [DIR]",
    help: `Trusts or untrusts the project that holds DIR (default: --cwd, else the current
directory) — its .mind/ layer and its .claude/ and .codex/ hooks — or shows its
status. A trusted project's hooks are loaded; each still needs its own trust
(mind-hooks review).`,
    words: ["trust", "untrust", "status"],
    needsWord: "an action",
    options: COMMON_OPTIONS,
    sandbox: { reads: "config", state: true, args: "project-dir" },
    load: async () => (await import("./project.ts")).projectCommand,
  }],
  ["prune", {
    about: "forget the state of files and projects that are gone",
    usage: "[--yes]",
    help: `Finds the trust and enabled state (in the user config.toml) of hooks whose file no
longer exists, and the trust of projects whose folder no longer exists, with the
kept copies of their trusted definitions. Prints what it would remove and writes
nothing, unless --yes: then removes it (comments and the rest of the file kept).`,
    options: { home: ENGINE.home, yes: { type: "boolean", about: "remove them (default: only print them)" }, ...HELP },
    sandbox: {
      reads: "config",
      state: true,
      readAnywhere: "prune checks that each file and project named in the user's state still exists",
    },
    load: async () => (await import("./prune.ts")).pruneCommand,
  }],
  ["validate", {
    about: "check config files",
    usage: "[FILE...]",
    help: `Checks configuration files and prints every warning (file:line:column) on stderr
and a one-line summary on stdout. Without FILE, checks every file the catalog
would read, including an untrusted project's .mind/ files (nothing runs). A FILE
ending in .toml is read as config.toml / requirements.toml, any other as a
hooks.json (JSON with comments). Exit 1 when any file has an error.`,
    options: COMMON_OPTIONS,
    sandbox: { reads: "config", args: "files" },
    load: async () => (await import("./validate.ts")).validateCommand,
  }],
  ["transcript", {
    about: "session transcripts",
    usage: "append|path|show --session ID ...",
    help: `  append --session ID --event NAME [--turn ID] [--actor A] [--agent ID] < payload.json
      Appends one line to the session's transcript (the subagent's with --agent). The
      payload is one JSON object on stdin (empty stdin means {}). Prints the path.
  path --session ID [--agent ID]
      Prints the path the session's (or subagent's) transcript resolves to.
  show --session ID [--agent ID] [--follow]
      Prints the transcript, one readable line per event; --follow keeps printing
      appended lines until interrupted or until the file is removed.

Events: ${TRANSCRIPT_EVENTS.join(", ")}`,
    words: ["append", "path", "show"],
    needsWord: "an action",
    options: { ...TRANSCRIPT_BASE },
    actionOptions: {
      append: {
        ...TRANSCRIPT_BASE,
        event: { type: "string", value: "text", arg: "NAME", about: "the event of an appended record" },
        turn: { type: "string", value: "text", arg: "ID", about: "the turn id of an appended record" },
        actor: { type: "string", value: "text", arg: "A", about: "who wrote an appended record" },
      },
      path: TRANSCRIPT_BASE,
      show: { ...TRANSCRIPT_BASE, follow: { type: "boolean", short: "f", about: "keep printing new records" } },
    },
    sandbox: { reads: "config" },
    load: async () => (await import("./transcript.ts")).transcriptCommand,
  }],
  ["session-end", {
    about: "end a session's async hooks and spill files",
    usage: "--session ID",
    help: `Ends a session's engine-side state: kills its unfinished async hooks, discards
their undelivered output, and deletes its spilled outputs
(<temp-dir>/hook_outputs/<session>/). Prints a one-line summary. Safe to repeat.`,
    options: {
      home: ENGINE.home,
      "temp-dir": ENGINE["temp-dir"],
      session: SESSION,
      ...HELP,
    },
    sandbox: { reads: "config", engine: true },
    load: async () => (await import("./session_end.ts")).sessionEndCommand,
  }],
  ["schema", {
    about: "print JSON Schemas",
    usage: "input|output|config|result [EVENT]",
    help: `Prints a JSON Schema:
  input [EVENT]    what a hook reads on stdin; without EVENT, every event's
  output [EVENT]   what a hook may print on stdout; without EVENT, every event's
  config           the hooks.json schema: "$schema" in editors, or the files' own check
  result           the dispatch result (also the result of serve's dispatch)

EVENT: ${EVENT_NAMES.join(", ")}
       (or the file-name form: pre-tool-use, session-start, ...)`,
    words: ["input", "output", "config", "result"],
    words2: { input: EVENT_NAMES, output: EVENT_NAMES },
    needsWord: "a kind",
    options: HELP,
    sandbox: { reads: "nothing" },
    load: async () => (await import("./schema.ts")).schemaCommand,
  }],
  ["test", {
    about: "run hooks on written or recorded events and check what they answer",
    usage: "[FILE|DIR...] [--junit FILE] [--only KEY] [--untrusted [--yes]] | --replay SESSION|--since TIME | --init",
    help: `Runs the cases of TOML test files (default: every *.toml under the project's
.mind/tests/) through the engine exactly as dispatch would - same trust, same hooks -
and checks each result. One line per case, then "N passed, N failed"; exit 1 when
any case failed.

A case ([[case]]) has a name, an event - whole (input = {...}) or short (event,
tool, command, file_path, prompt, tool_input, fields = {...}) - and expectations:
decision ("none" for no decision), reason (a regular expression), context
(substrings of the additional context), continue, updatedInput (fields it must
hold), runs = { KEY = "completed" } (each hook's run status). host = "claude" (or
codex, gemini, copilot) runs the case through that host's protocol instead.

--junit FILE writes the results as JUnit XML. --only KEY runs that hook alone.
--untrusted also runs the hooks that are not trusted, for this command only, in a
throw-away copy of the project, after asking y/N (--yes: without asking); no trust
is recorded.

--replay SESSION or --since TIME (10m, 2h, 1d, or an ISO-8601 time) dispatches the
events recorded with [hooks] record = true in config.toml again against today's
configuration, in a throw-away copy of the project, and prints per event the
decision then and now; exit 1 when a decision changed.

--init writes .mind/tests/hooks.toml with one case per hook in reach.`,
    options: {
      ...COMMON_OPTIONS,
      junit: { type: "string", value: "file", arg: "FILE", about: "write the results as JUnit XML" },
      only: { type: "string", value: "text", arg: "KEY", multiple: true, about: "run this hook alone (repeatable)" },
      untrusted: { type: "boolean", about: "also run hooks not trusted, in a throw-away copy of the project" },
      yes: { type: "boolean", about: "with --untrusted: do not ask" },
      replay: { type: "string", value: "text", arg: "SESSION", about: "replay a recorded session's events" },
      since: {
        type: "string",
        value: "text",
        arg: "TIME",
        about: "replay the events recorded since TIME (10m, 2h, 1d)",
      },
      init: { type: "boolean", about: "write a starter test file, .mind/tests/hooks.toml" },
    },
    sandbox: { reads: "config", engine: true, mcp: "net", pins: "trusted-project", args: "tests", throwaway: true },
    load: async () => (await import("./test.ts")).testCommand,
  }],
  ["doctor", {
    about: "the sandbox's permission set, proven; checks",
    usage: "",
    help: `Checks the configuration files, the trust state, the agent hosts and the hook
shell; then prints the permission set this engine runs with and proves it by trying,
inside the sandbox, a read and a write outside it and a network connection: each must
be denied. Ends with what to fix. Exit 0: nothing to fix; 1: see the lines marked "fix:".`,
    options: COMMON_OPTIONS,
    sandbox: { reads: "config", engine: true, mcp: "net", pins: "trusted-project", args: "host-checks" },
    load: async () => (await import("./doctor.ts")).doctorCommand,
  }],
  ["install", {
    about: "register mind-hooks in Claude Code, Codex, Gemini CLI or Copilot CLI",
    usage: `${HOSTS.join("|")} [--user|--project DIR|--local] [--uninstall] [--dry-run] [--force] [--sync]`,
    help: `Registers one hook entry per event that the host supports, each running
"LAUNCHER dispatch --protocol HOST", in the host's own settings:
  claude --user               $CLAUDE_CONFIG_DIR/settings.json, else ~/.claude/settings.json
  claude --project DIR        DIR/.claude/settings.json
  claude --local [--project DIR]  DIR/.claude/settings.local.json (DIR: the current directory)
  codex --user                $CODEX_HOME/hooks.json, else ~/.codex/hooks.json
  codex --project DIR         DIR/.codex/hooks.json
  gemini --user               ~/.gemini/settings.json ($GEMINI_CLI_HOME for ~ when set)
  gemini --project DIR        DIR/.gemini/settings.json
  copilot --user              $COPILOT_HOME/settings.json, else ~/.copilot/settings.json
  copilot --project DIR       DIR/.github/hooks/mind-hooks.json
Everything else in the file is kept (comments included). Running it again changes
nothing. Gemini CLI's PreCompress (before every model request) is not registered.
Uninstalling deletes a file left holding nothing, and its folders if left empty.
The launcher (--command, default mind-hooks) must be an executable absolute path
or on PATH, else nothing is written (unless --force).
With --sync, only the events the hooks in reach (the user's, and the project's of
--project DIR or the current directory) are on are registered, and for claude only
the tools their matchers name: a tool call no mind hook can match then costs
nothing. Run it again after adding hooks or trusting another project.`,
    words: HOSTS,
    needsWord: "a host",
    options: {
      user: { type: "boolean", about: "the user's settings (default)" },
      project: { type: "string", value: "dir", about: "a project's settings (DIR must exist)" },
      local: { type: "boolean", about: "Claude Code's personal, not committed, project settings" },
      uninstall: { type: "boolean", about: "remove the entries instead" },
      "dry-run": { type: "boolean", about: "print the change as a unified diff; write nothing" },
      sync: { type: "boolean", about: "only the events and tools the configured hooks use" },
      command: { type: "string", value: "text", arg: "CMD", about: "how the host starts mind-hooks" },
      force: { type: "boolean", about: "register a launcher that is not on PATH" },
      ...HELP,
    },
    sandbox: { reads: "config", args: "host-settings" },
    load: async () => (await import("./install.ts")).installCommand,
  }],
  ["completions", {
    about: "print a shell completion script",
    usage: "bash|zsh|fish",
    help: `Prints the shell's completion script for mind-hooks. To load it:
  bash  source <(mind-hooks completions bash)          # in ~/.bashrc
  zsh   mind-hooks completions zsh > "\${fpath[1]}/_mind-hooks"   # then restart zsh
  fish  mind-hooks completions fish > ~/.config/fish/completions/mind-hooks.fish`,
    words: SHELLS,
    needsWord: "a shell",
    options: HELP,
    sandbox: { reads: "nothing" },
    load: async () => (await import("./completions.ts")).completionsCommand,
  }],
  ["daemon", {
    about: "the warm per-home dispatcher dispatch uses",
    usage: "start|stop|status [--json]",
    help: `Runs one warm dispatcher for the home: dispatch hands it each event
through the home's socket (run/daemon.sock, this user's only) and prints its answer,
which is the one the in-process dispatch gives. The hooks run with dispatch's own
environment and working directory; configuration is kept loaded and re-read when it
changes. When no daemon answers, dispatch runs in-process and starts one for the next
event. MIND_HOOKS_DAEMON=off or [hooks] daemon = false (user or managed config): never.

  start    start it (returns once it answers; the same pid when one runs)
  stop     stop it
  status   its pid, version, uptime, events served and memory; exit 1 when none runs

It exits after 15 minutes without events and when its socket is removed. Not on Windows:
dispatch runs in-process there.`,
    words: ["start", "stop", "status"],
    needsWord: "an action",
    options: { home: ENGINE.home, json: { type: "boolean", about: "status as JSON" }, ...HELP },
    sandbox: { reads: "config", resident: true },
    load: async () => (await import("./daemon_command.ts")).daemonCommand,
  }],
  ["__daemon", {
    about: "the warm per-home dispatcher itself",
    usage: "",
    help: "",
    options: { home: ENGINE.home },
    internal: true,
    sandbox: { reads: "config", engine: true, mcp: "net", resident: true },
    load: async () => (await import("./daemon_server.ts")).daemonServeCommand,
  }],
  ["__async-run", {
    about: "the detached owner of one-shot async hooks",
    usage: "",
    help: "",
    // --cwd: where its dispatch ran, so that its sandbox may read the project its hooks' pins are in.
    options: { home: ENGINE.home, cwd: ENGINE.cwd },
    internal: true,
    sandbox: { reads: "config", engine: true, pins: "trusted-project" },
    load: async () => (await import("./async_run.ts")).asyncRunCommand,
  }],
]);

/** The names of the commands people use (not the internal ones), in table order. */
export function publicCommandNames(): string[] {
  return [...COMMANDS].filter(([, c]) => !c.internal).map(([n]) => n);
}

/** The options the command line takes before (instead of) a command. */
const TOP_LEVEL_OPTIONS = ["--version", "--help", "-V", "-h"];

/** `unknown command "lsit"; did you mean "list"? (see mind-hooks --help)`. */
export function unknownCommand(name: string): UsageError {
  // `--versoin`: an option of the command line itself, not a command.
  if (name.startsWith("-")) {
    return new UsageError(
      `unknown option ${name}${didYouMean(name, TOP_LEVEL_OPTIONS, (n) => n)} (see mind-hooks --help)`,
    );
  }
  const hint = Object.hasOwn(OPTION_COMMANDS, name)
    ? ` — did you mean ${OPTION_COMMANDS[name]}?`
    : didYouMean(name, publicCommandNames());
  return new UsageError(`unknown command ${JSON.stringify(name)}${hint} (see mind-hooks --help)`);
}

const EXPLAIN = "mind-hooks dispatch --explain < event.json (why each hook ran or not)";
/** Words people type as a command that are an option of one (`mind-hooks explain`: `dispatch --explain`). */
const OPTION_COMMANDS: Readonly<Record<string, string>> = { explain: EXPLAIN, why: EXPLAIN };

/** The words of `entry` as a sentence's list: `trust, untrust or status`. */
export function wordList(words: readonly string[]): string {
  return words.length < 2 ? words.join("") : `${words.slice(0, -1).join(", ")} or ${words[words.length - 1]}`;
}

/**
 * Checks the first argument of a command that needs one of its words: missing is a
 * {@link MissingArgument}, anything else unknown a usage error with the closest word.
 */
function checkWord(name: string, entry: CommandEntry, word: string | undefined): void {
  if (!entry.needsWord || !entry.words) return;
  if (word === undefined) throw new MissingArgument(`${name} needs ${entry.needsWord}: ${wordList(entry.words)}`);
  if (!entry.words.includes(word)) {
    const what = entry.needsWord.replace(/^an? /, "");
    throw new UsageError(
      `${name}: unknown ${what} ${JSON.stringify(word)}${didYouMean(word, entry.words)} (${wordList(entry.words)})`,
    );
  }
}

/**
 * Parses a command's arguments with its declared options (for a command with actions, the first
 * argument's own set) and checks the word it needs. Throws {@link UsageError} for what the command
 * would refuse anyway. `--help` needs nothing else.
 */
export function parseCommand(
  name: string,
  entry: CommandEntry,
  args: readonly string[],
  lenient = false,
): ParsedArgs {
  const [action, ...rest] = args;
  const parsed = !entry.actionOptions || action === undefined || action.startsWith("-")
    ? parseArgs(args, entry.options, lenient)
    : Object.hasOwn(entry.actionOptions, action)
    ? prefixed(action, parseArgs(rest, entry.actionOptions[action], lenient))
    : lenient
    ? { options: {}, positionals: [action] }
    : null;
  if (parsed === null) {
    checkWord(name, entry, action);
    throw new UsageError(`${name}: unknown action ${JSON.stringify(action)}`);
  }
  if (!lenient && !parsed.options.help) checkWord(name, entry, parsed.positionals[0]);
  return parsed;
}

function prefixed(action: string, parsed: ParsedArgs): ParsedArgs {
  return { options: parsed.options, positionals: [action, ...parsed.positionals] };
}

/** Parses the whole command line of command `name` (tests and tools; `main.ts` parses the same way). */
export function parseCommandLine(name: string, args: readonly string[]): ParsedArgs {
  const entry = COMMANDS.get(name);
  if (!entry) throw unknownCommand(name);
  return parseCommand(name, entry, args);
}
