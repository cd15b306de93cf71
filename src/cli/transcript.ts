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
import {
  appendTranscript,
  renderTranscriptLine,
  subagentTranscriptPath,
  TRANSCRIPT_EVENTS,
  transcriptPath,
} from "../session/transcript.ts";
import { writeStdout } from "../util/stdio.ts";
import { didYouMean } from "../util/suggest.ts";
import type { RunIo } from "../sandbox/launch.ts";
import { sanitize } from "../util/terminal_text.ts";

/** How often `show --follow` looks at the file. Polling works on every platform and file system. */
const FOLLOW_POLL_MS = 100;

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

// ---------------------------------------------------------------------------------------------
// show and show --follow
// ---------------------------------------------------------------------------------------------

/**
 * Reads a transcript incrementally and renders whole lines. Bytes are decoded as a stream (a
 * multi-byte character split across reads stays whole) and a trailing fragment without its line
 * break waits for the next read: a writer holds the file lock for each write, so a fragment is
 * either the start of a line being read mid-write elsewhere or a torn line that the next append
 * will terminate.
 */
class LineReader {
  #decoder = new TextDecoder();
  #pending = "";

  /** Rendered lines completed by `bytes` (empty lines of the file are skipped). */
  push(bytes: Uint8Array): string[] {
    const text = this.#pending + this.#decoder.decode(bytes, { stream: true });
    const parts = text.split("\n");
    this.#pending = parts.pop() ?? "";
    return renderAll(parts);
  }

  /** Renders what is left (the file ended without a final line break). */
  flush(): string[] {
    const rest = this.#pending + this.#decoder.decode();
    this.#pending = "";
    return renderAll([rest]);
  }
}

function renderAll(lines: string[]): string[] {
  const out: string[] = [];
  for (const line of lines) {
    const rendered = renderTranscriptLine(line.endsWith("\r") ? line.slice(0, -1) : line);
    // Payloads are model and tool output: shown with their escapes visible (SPEC §15).
    if (rendered !== "") out.push(sanitize(rendered));
  }
  return out;
}

/** Bytes to read at once: bounded memory for any transcript size. */
const CHUNK = 64 * 1024;

/**
 * The size of the file's complete content. Taken under a shared lock, which waits for any
 * writer's exclusive lock: every byte before that size then belongs to a finished write, and as
 * the file is append-only those bytes can be read afterwards without holding the lock.
 */
async function settledSize(file: Deno.FsFile): Promise<number> {
  await file.lock(false);
  try {
    return (await file.stat()).size;
  } finally {
    await file.unlock();
  }
}

/** Reads `[from, to)` of `file` in chunks, handing each to `sink`. */
async function readRange(
  file: Deno.FsFile,
  from: number,
  to: number,
  sink: (bytes: Uint8Array) => Promise<void>,
): Promise<number> {
  await file.seek(from, Deno.SeekMode.Start);
  let offset = from;
  const buf = new Uint8Array(CHUNK);
  while (offset < to) {
    const n = await file.read(buf.subarray(0, Math.min(CHUNK, to - offset)));
    if (n === null || n === 0) break;
    offset += n;
    await sink(buf.slice(0, n));
  }
  return offset;
}

/** Prints rendered lines; false once stdout is closed (e.g. piped into `head`), which ends the command. */
async function print(lines: string[]): Promise<boolean> {
  if (lines.length === 0) return true;
  try {
    await writeStdout(lines.join("\n") + "\n");
    return true;
  } catch (e) {
    if (e instanceof Deno.errors.BrokenPipe) return false;
    throw e;
  }
}

/** `show`: the whole file as it is now. */
async function show(path: string): Promise<number> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) throw new UsageError(`no transcript at ${path}`);
    throw e;
  }
  try {
    const reader = new LineReader();
    let open = true;
    await readRange(file, 0, await settledSize(file), async (bytes) => {
      if (open) open = await print(reader.push(bytes));
    });
    if (open) await print(reader.flush());
  } finally {
    file.close();
  }
  return 0;
}

/**
 * `show --follow`: prints what is there, then every appended line, until SIGINT (exit 0) or until
 * the file is removed. A file that does not exist yet is waited for, so a viewer can be started
 * before the session's first line. A file replaced by another one (a new inode) or cut shorter
 * is read again from its start.
 */
async function follow(path: string): Promise<number> {
  let stopped = false;
  let wake: (() => void) | null = null;
  const onSignal = () => {
    stopped = true;
    wake?.();
  };
  const signals: Deno.Signal[] = Deno.build.os === "windows" ? ["SIGINT", "SIGBREAK"] : ["SIGINT", "SIGTERM"];
  for (const s of signals) Deno.addSignalListener(s, onSignal);
  const sleep = () =>
    new Promise<void>((resolve) => {
      const id = setTimeout(() => {
        wake = null;
        resolve();
      }, FOLLOW_POLL_MS);
      wake = () => {
        clearTimeout(id);
        wake = null;
        resolve();
      };
    });

  let file: Deno.FsFile | null = null;
  let inode: number | null = null;
  let offset = 0;
  let reader = new LineReader();
  let seen = false;
  /** Prints what was appended since the last call; false once stdout is closed. */
  const drain = async (from: Deno.FsFile): Promise<boolean> => {
    const size = await settledSize(from);
    if (size < offset) {
      offset = 0;
      reader = new LineReader();
    }
    let open = true;
    if (size > offset) {
      offset = await readRange(from, offset, size, async (bytes) => {
        if (open) open = await print(reader.push(bytes));
      });
    }
    return open;
  };
  try {
    while (!stopped) {
      let info: Deno.FileInfo | null = null;
      try {
        info = await Deno.stat(path);
      } catch (e) {
        if (!(e instanceof Deno.errors.NotFound)) throw e;
      }
      if (info === null) {
        if (!seen) {
          await sleep();
          continue;
        }
        // Removed: print what was written before the removal (still readable through the open
        // handle), then stop, as nothing more will be appended to it.
        if (file !== null) await drain(file);
        break;
      }
      if (file === null || (info.ino !== null && info.ino !== inode)) {
        file?.close();
        file = await Deno.open(path, { read: true });
        inode = (await file.stat()).ino;
        offset = 0;
        reader = new LineReader();
        seen = true;
      }
      if (!(await drain(file))) break;
      await sleep();
    }
    await print(reader.flush());
  } finally {
    file?.close();
    for (const s of signals) Deno.removeSignalListener(s, onSignal);
  }
  return 0;
}
