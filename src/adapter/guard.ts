/**
 * The delegating command fails closed (SPEC §6 r4). What `install` registers is not the bare
 * `<launcher> dispatch --protocol <host>`: a host that cannot find the launcher (an agent started from an
 * IDE or a desktop launcher, whose PATH lacks it; a launcher deleted or moved) reads the shell's "not
 * found" (exit 127) as a failed hook and goes on — the guard never ran. So the command first checks that
 * the launcher is there and executable, and after the call that it started (the shell's 126/127, or a
 * death by signal, 128+): else it prints one line naming the fix on stderr and exits 2, the block form
 * all four hosts share (Claude Code, Codex, Gemini CLI: exit 2 with the reason on stderr; Copilot CLI's
 * preToolUse: exit 2 denies), on an event whose block stops something. On Stop and SubagentStop a block
 * makes the agent go on working — Codex and Gemini CLI have no cap, so a missing launcher would keep the
 * session looping — and there it exits 1, which each host shows as a failed hook.
 *
 * The form stays one readable shell line, so a person reading the host's settings sees what it does:
 *
 *     [ -x ~/.local/bin/mind-hooks ] || { echo 'mind-hooks not found at ~/.local/bin/mind-hooks: run mind-hooks install claude' >&2; exit 2; }; ~/.local/bin/mind-hooks dispatch --protocol claude; s=$?; [ $s -lt 126 ] || { echo '…did not start (exit '$s')…' >&2; exit 2; }; exit $s
 *
 * Windows hosts start hooks through other shells: there the command is the bare call (its launcher path
 * absolute all the same).
 * @module
 */
import { shellQuote } from "../matching/tool_names.ts";
import { launcherProgram } from "../util/launcher.ts";

/** What the guard needs: the launcher as written, the call it guards, its exit code, the fix. */
export type GuardSpec = {
  /** The launcher command line (`~/.local/bin/mind-hooks`, or `--command`'s). */
  launcher: string;
  /** The whole delegating call (`<launcher> dispatch --protocol <host>[ --event …]`). */
  invocation: string;
  /** 2 where a block stops something; 1 where it would keep the agent going (Stop, SubagentStop). */
  code: 1 | 2;
  /** The command that fixes it (`mind-hooks install claude`). */
  fix: string;
};

/** What runs after the call: the shell's own failure to start it (126, 127) or its death by signal. */
const AFTER = "; s=$?; [ $s -lt 126 ] || ";

/** The registered command: `invocation`, guarded (POSIX); see the module comment. */
export function guardedCommand(g: GuardSpec): string {
  const program = launcherProgram(g.launcher);
  const absolute = program.startsWith("/");
  const test = absolute ? `[ -x ${shellQuote(program)} ]` : `command -v ${shellQuote(program)} >/dev/null 2>&1`;
  const missing = absolute ? `mind-hooks not found at ${program}` : `mind-hooks not found: ${program} is not on PATH`;
  const failed = `${shellQuote(`mind-hooks at ${program} did not start (exit `)}"$s"${
    shellQuote("): run mind-hooks doctor")
  }`;
  return `${test} || { echo ${shellQuote(`${missing}: run ${g.fix}`)} >&2; exit ${g.code}; }; ${g.invocation}` +
    `${AFTER}{ echo ${failed} >&2; exit ${g.code}; }; exit $s`;
}

/** The guard's head up to the call: the test, the missing line, its exit. */
const HEAD = /^(?:\[ -x .+? \]|command -v .+? >\/dev\/null 2>&1) \|\| \{ echo .+? >&2; exit [12]; \}; /s;

/** The call a registered command makes: the invocation inside a guard, or the command itself when bare. */
export function unguarded(command: string): string {
  const head = HEAD.exec(command);
  if (!head) return command;
  const rest = command.slice(head[0].length);
  const end = rest.lastIndexOf(AFTER);
  return end < 0 ? command : rest.slice(0, end);
}
