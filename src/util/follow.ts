/**
 * Printing a line-oriented, append-only file for people, whole or followed (`transcript show
 * [--follow]`, `logs [--follow]`): each complete line goes through the caller's `render` (which may
 * drop it), and what is printed is sanitised for the terminal (SPEC §15).
 *
 * Bytes are decoded as a stream (a multi-byte character split across reads stays whole) and a
 * trailing fragment without its line break waits for the next read: a fragment is either a line
 * being written elsewhere or a torn line that the next append will terminate. Memory is bounded by
 * reading in chunks, whatever the file's size. Following polls (works on every platform and file
 * system), reads what was appended, and reads a file replaced by another one (a new inode, a log
 * rotation) or cut shorter again from its start, after draining the old one.
 * @module
 */
import { writeStdout } from "./stdio.ts";
import { sanitize } from "./terminal_text.ts";
import { lockWithin } from "./file_lock.ts";
import { LineSplitter, type SplitLine } from "./line_split.ts";

/**
 * One line of the file (without its line break) → the text to print, or null to print nothing; or
 * several lines (a record wrapped to the terminal's width), each sanitised on its own.
 */
export type LineRender = (line: string) => string | string[] | null;

/** How often a followed file is looked at. */
export const FOLLOW_POLL_MS = 100;

/** Bytes read at once. */
const CHUNK = 64 * 1024;

/** The longest line printed (longer ones are skipped): what one line may hold in memory. */
const MAX_LINE_BYTES = 64 * 1024 * 1024;

/**
 * Complete lines out of a stream of chunks, each rendered. Split by the linear splitter
 * (src/util/line_split.ts): a line arriving in many chunks is searched and copied a bounded number
 * of times, never joined again with each chunk.
 */
class LineReader {
  readonly #lines = new LineSplitter(MAX_LINE_BYTES);
  readonly #render: LineRender;

  constructor(render: LineRender) {
    this.#render = render;
  }

  /** Rendered lines completed by `bytes` (empty lines of the file are skipped). */
  push(bytes: Uint8Array): string[] {
    return this.#all(this.#lines.push(bytes));
  }

  /** Renders what is left (the file ended without a final line break). */
  flush(): string[] {
    return this.#all(this.#lines.end());
  }

  #all(lines: SplitLine[]): string[] {
    const out: string[] = [];
    for (const line of lines) {
      if (line === null) continue; // over MAX_LINE_BYTES: not held in memory, not printed
      const trimmed = line.endsWith("\r") ? line.slice(0, -1) : line;
      if (trimmed === "") continue;
      const rendered = this.#render(trimmed);
      for (const r of Array.isArray(rendered) ? rendered : rendered === null ? [] : [rendered]) {
        if (r !== "") out.push(sanitize(r));
      }
    }
    return out;
  }
}

/**
 * The size of the file's complete content. Taken under a shared lock, which waits for any writer's
 * exclusive lock: every byte before that size then belongs to a finished write, and as the file is
 * append-only those bytes can be read afterwards without holding the lock. A writer frozen while
 * holding its lock is not waited for past the lock deadline: the size is then taken as it is, and a
 * line it left unfinished waits, as a fragment, for its line break.
 */
async function settledSize(file: Deno.FsFile): Promise<number> {
  if (!(await lockWithin(file, false))) return (await file.stat()).size;
  try {
    return (await file.stat()).size;
  } finally {
    await file.unlock();
  }
}

/** Reads `[from, to)` of `file` in chunks, handing each to `sink`; returns where it stopped. */
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

/** Prints lines; false once stdout is closed (e.g. piped into `head`), which ends the command. */
export async function printLines(lines: string[]): Promise<boolean> {
  if (lines.length === 0) return true;
  try {
    await writeStdout(lines.join("\n") + "\n");
    return true;
  } catch (e) {
    if (e instanceof Deno.errors.BrokenPipe) return false;
    throw e;
  }
}

/**
 * Prints the whole file as it is now, each line through `render`. False when stdout was closed.
 * Throws Deno.errors.NotFound when there is no file.
 */
export async function printFile(path: string, render: LineRender): Promise<boolean> {
  const file = await Deno.open(path, { read: true });
  try {
    const reader = new LineReader(render);
    let open = true;
    await readRange(file, 0, await settledSize(file), async (bytes) => {
      if (open) open = await printLines(reader.push(bytes));
    });
    return open && await printLines(reader.flush());
  } finally {
    file.close();
  }
}

/** How {@link followFile} treats the file going away. */
export type FollowOptions = {
  /** Stop once the file is removed (a transcript); otherwise wait for it to come back (a rotated log). */
  endWhenRemoved: boolean;
  /** Start at the file's current end instead of its start (what was there is printed already). */
  fromEnd?: boolean;
};

/**
 * Prints what is in the file (unless `fromEnd`), then every appended line, until SIGINT/SIGTERM
 * (exit 0), stdout closing, or — with `endWhenRemoved` — the file's removal. A file that does not
 * exist yet is waited for.
 */
export async function followFile(path: string, render: LineRender, opts: FollowOptions): Promise<number> {
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
  let reader = new LineReader(render);
  let seen = false;
  let skipTo = opts.fromEnd === true;
  /** Prints what was appended since the last call; false once stdout is closed. */
  const drain = async (from: Deno.FsFile): Promise<boolean> => {
    const size = await settledSize(from);
    if (size < offset) {
      offset = 0;
      reader = new LineReader(render);
    }
    let open = true;
    if (size > offset) {
      offset = await readRange(from, offset, size, async (bytes) => {
        if (open) open = await printLines(reader.push(bytes));
      });
    }
    return open;
  };
  let open = true;
  try {
    while (!stopped && open) {
      let info: Deno.FileInfo | null = null;
      try {
        info = await Deno.stat(path);
      } catch (e) {
        if (!(e instanceof Deno.errors.NotFound)) throw e;
      }
      if (info === null) {
        // Gone: print what was written before it went (still readable through the open handle).
        if (file !== null) {
          open = await drain(file) && await printLines(reader.flush());
          file.close();
          file = null;
          inode = null;
        }
        if (seen && opts.endWhenRemoved) break;
        skipTo = false;
        await sleep();
        continue;
      }
      if (file === null || (info.ino !== null && info.ino !== inode)) {
        if (file !== null) {
          open = await drain(file) && await printLines(reader.flush());
          file.close();
        }
        file = await Deno.open(path, { read: true });
        inode = (await file.stat()).ino;
        offset = skipTo ? await settledSize(file) : 0;
        skipTo = false;
        reader = new LineReader(render);
        seen = true;
      }
      if (open) open = await drain(file);
      if (open) await sleep();
    }
    if (open) await printLines(reader.flush());
  } finally {
    file?.close();
    for (const s of signals) Deno.removeSignalListener(s, onSignal);
  }
  return 0;
}
