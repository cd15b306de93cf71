/**
 * `mind-hooks transcript append|path|show` (SPEC §11): the session transcript from the command
 * line, for hosts that do not link the engine and for people reading a session.
 *
 * - `append --session ID --event NAME [--turn ID] [--actor A] [--agent ID]`: one line, payload
 *   (a JSON object) on stdin. Bad input is a usage error and writes nothing.
 * - `path --session ID [--agent ID]`: the file the session (or subagent) resolves to.
 * - `show --session ID [--agent ID] [--follow]`: the lines rendered for people; `--follow` keeps
 *   printing appended lines until SIGINT or until the file is removed.
 *
 * zod stays out of this module (the writer validates by hand), so every action starts fast.
 * @module
 */
import { MissingArgument, type ParsedArgs, UsageError } from "../util/args.ts";
import { cliSettings } from "./context.ts";
import { appendTranscript, subagentTranscriptPath, TRANSCRIPT_EVENTS, transcriptPath } from "../session/transcript.ts";
import { renderTranscriptLine } from "../session/transcript_line.ts";
import { writeStdout } from "../util/stdio.ts";
import { followFile, printFile } from "../util/follow.ts";
import { didYouMean } from "../util/suggest.ts";
import type { RunIo } from "../sandbox/launch.ts";
import { sanitize } from "../util/terminal_text.ts";

/** Runs the command; returns the exit code. */
export async function transcriptCommand({ options, positionals: words }: ParsedArgs, io: RunIo): Promise<number> {
  // The action picked its own options when the command line was parsed (src/cli/commands.ts).
  const [action, ...positionals] = words;
  // The command table has checked the action (src/cli/commands.ts).
  if (positionals.length > 0) {
    throw new UsageError(`transcript ${action}: unexpected argument ${JSON.stringify(positionals[0])}`);
  }
  const sessionId = requiredText(options.session, "--session");
  const agentId = optionalText(options.agent, "--agent");
  const { home } = cliSettings(options);
  // append resolves its path itself, under the writer's lock (the first line of a dateless id).
  if (action === "append") return await append(home, sessionId, agentId, options, io);
  const path = agentId === undefined
    ? await transcriptPath(home, sessionId)
    : await subagentTranscriptPath(home, sessionId, agentId);
  if (action === "path") {
    await writeStdout(path + "\n");
    return 0;
  }
  return options.follow ? await follow(path) : await show(path);
}

/** A required option with a non-empty value. */
function requiredText(value: unknown, name: string): string {
  if (typeof value !== "string") throw new MissingArgument(`${name} ${name === "--event" ? "NAME" : "ID"} is required`);
  if (value === "") throw new UsageError(`${name} must not be empty`);
  return value;
}

/** An optional option that, when given, is not empty (an empty id would silently mean "none"). */
function optionalText(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (value === "") throw new UsageError(`${name} must not be empty`);
  return value as string;
}

/** `append`: validates everything before touching the file, so bad input writes nothing. */
async function append(
  home: string,
  sessionId: string,
  agentId: string | undefined,
  options: Record<string, unknown>,
  io: RunIo,
): Promise<number> {
  const event = requiredText(options.event, "--event");
  // Checked before stdin is read: a wrong event name must not wait for a payload.
  if (!(TRANSCRIPT_EVENTS as readonly string[]).includes(event)) {
    throw new UsageError(
      `unknown transcript event ${JSON.stringify(event)}${didYouMean(event, TRANSCRIPT_EVENTS)}; expected one of ${
        TRANSCRIPT_EVENTS.join(", ")
      }`,
    );
  }
  const payload = parsePayload(new TextDecoder().decode(await io.stdin()));
  const result = await appendTranscript(home, {
    sessionId,
    event,
    turnId: optionalText(options.turn, "--turn") ?? null,
    actor: optionalText(options.actor, "--actor") ?? null,
    agentId: agentId ?? null,
    payload,
  });
  if (!result.ok) {
    if (result.error.kind === "invalid") throw new UsageError(result.error.message);
    // Not bad input and not a bug: the home is not writable. Exit 2 with the cause, not "internal error".
    console.error(sanitize(`mind-hooks: cannot append to the transcript: ${result.error.message.split("\n", 1)[0]}`));
    return 2;
  }
  await writeStdout(result.path + "\n");
  return 0;
}

/** The payload from stdin: a JSON object; empty stdin is `{}` (many events carry nothing). */
function parsePayload(text: string): Record<string, unknown> {
  if (text.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    // The parser quotes the text it choked on, line breaks included; the error stays one line.
    const why = (e instanceof Error ? e.message : String(e)).replace(/\s+/g, " ");
    throw new UsageError(`payload on stdin is not valid JSON: ${why}`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new UsageError("payload on stdin must be a JSON object");
  }
  return value as Record<string, unknown>;
}

/** `show`: the whole file as it is now, one readable line per record. */
async function show(path: string): Promise<number> {
  try {
    await printFile(path, renderTranscriptLine);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) throw new UsageError(`no transcript at ${path}`);
    throw e;
  }
  return 0;
}

/**
 * `show --follow`: prints what is there, then every appended line, until SIGINT (exit 0) or until
 * the file is removed. A file that does not exist yet is waited for, so a viewer can be started
 * before the session's first line.
 */
function follow(path: string): Promise<number> {
  return followFile(path, renderTranscriptLine, { endWhenRemoved: true });
}
