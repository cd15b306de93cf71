/**
 * Whole-stream stdin reads and complete stdout writes, shared by every command.
 *
 * A plain read loop rather than `Deno.stdin.readable`: the first ReadableStream makes the runtime
 * load its streams implementation (~5 ms), which a no-match dispatch would otherwise pay.
 * @module
 */

/** `buf` with room after `size` bytes (doubled when full). */
function roomy(buf: Uint8Array<ArrayBuffer>, size: number): Uint8Array<ArrayBuffer> {
  if (size < buf.length) return buf;
  const next = new Uint8Array(buf.length * 2);
  next.set(buf);
  return next;
}

/**
 * The event bytes the daemon's client (src/daemon/client.ts, loaded before the command line) already
 * read from stdin, when it handed the dispatch back to this process; undefined otherwise.
 */
function readByClient(): Uint8Array | undefined {
  const h = (globalThis as Record<symbol, { stdin?: Uint8Array } | undefined>)[Symbol.for("mind-hooks.daemon-handoff")];
  return h?.stdin;
}

/** Reads all of stdin as bytes. */
export async function readStdinBytes(): Promise<Uint8Array> {
  const read = readByClient();
  if (read) return read;
  let buf = new Uint8Array(64 * 1024);
  let size = 0;
  while (true) {
    buf = roomy(buf, size);
    const n = await Deno.stdin.read(buf.subarray(size));
    if (n === null) break;
    size += n;
  }
  return buf.slice(0, size);
}

/**
 * Reads all of stdin, synchronously: for a caller with nothing else to do meanwhile (the launcher
 * reading a dispatch's event), where each async read would wait for another thread.
 */
export function readStdinBytesSync(): Uint8Array {
  const read = readByClient();
  if (read) return read;
  let buf = new Uint8Array(64 * 1024);
  let size = 0;
  while (true) {
    buf = roomy(buf, size);
    const n = Deno.stdin.readSync(buf.subarray(size));
    if (n === null) break;
    size += n;
  }
  return buf.slice(0, size);
}

/** Reads all of stdin as UTF-8 text. */
export async function readStdin(): Promise<string> {
  return new TextDecoder().decode(await readStdinBytes());
}

/** Writes every byte of `bytes` to `to` (a single write may be partial). */
export async function writeAll(to: { write(p: Uint8Array): Promise<number> }, bytes: Uint8Array): Promise<void> {
  let off = 0;
  while (off < bytes.length) off += await to.write(bytes.subarray(off));
}

/** Writes every byte of `bytes` to `to`, synchronously (a file append under a lock, a terminal frame). */
export function writeAllSync(to: { writeSync(p: Uint8Array): number }, bytes: Uint8Array): void {
  let off = 0;
  while (off < bytes.length) off += to.writeSync(bytes.subarray(off));
}

/** Writes all of `text` to stdout. */
export async function writeStdout(text: string): Promise<void> {
  await writeAll(Deno.stdout, new TextEncoder().encode(text));
}
