/**
 * Appending whole lines to a shared line file (JSONL: the session transcript, the observation log)
 * so that a line torn by a crash or a full disk never swallows the next record: under an exclusive
 * lock on the file, if it does not end with a line break, one is written first, in the same write,
 * so the torn fragment stays alone on its line and the new lines parse.
 * @module
 */
import { writeAllSync } from "./stdio.ts";
import { lockWithin } from "./file_lock.ts";

const NEWLINE = 0x0a;

/**
 * Appends `data` (whole lines) to `file` (opened for reading and appending) while holding an
 * exclusive lock on it, repairing a torn last line first (see the module comment).
 *
 * The lock is awaited (a blocked lock must not stall a serving event loop), within the lock deadline
 * (src/util/file_lock.ts: a frozen process holding it must not hang the writer); the short, local
 * syscalls under it are synchronous, which is several times faster than their async forms.
 *
 * @returns the file's link count (0: deleted under the open handle; null where not reported)
 * @throws Deno.errors.TimedOut when another process kept the file locked past the deadline (nothing written)
 */
export async function appendWholeLines(file: Deno.FsFile, data: Uint8Array): Promise<number | null> {
  if (!(await lockWithin(file, true))) {
    throw new Deno.errors.TimedOut("the file stayed locked by another process; nothing was appended");
  }
  try {
    const { size, nlink } = file.statSync();
    const torn = size > 0 && lastByte(file, size) !== NEWLINE;
    writeAllSync(file, torn ? withLeadingNewline(data) : data);
    return nlink;
  } finally {
    file.unlockSync();
  }
}

function lastByte(file: Deno.FsFile, size: number): number | null {
  const buf = new Uint8Array(1);
  file.seekSync(size - 1, Deno.SeekMode.Start);
  return file.readSync(buf) === 1 ? buf[0] : null;
}

function withLeadingNewline(data: Uint8Array): Uint8Array {
  const out = new Uint8Array(data.length + 1);
  out[0] = NEWLINE;
  out.set(data, 1);
  return out;
}
