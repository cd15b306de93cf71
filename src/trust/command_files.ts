/**
 * Which files a hook's command line runs (SPEC §3.5): the entry to the command reader. The reader
 * itself is pure and split by concern — the lexer (src/shell/shell_syntax.ts), the walk with the
 * shell's state and expansion (src/shell/shell_reader.ts), the program models (src/shell/programs.ts,
 * src/shell/interpreters.ts) and globbing (src/shell/glob.ts); this module gives it the disk
 * (src/shell/reading_cache.ts) and names the variables that stand for a layer's root. The caller
 * (src/trust/pins.ts) keeps the candidates that are files or folders inside the root and pins them.
 * @module
 */
import { type CommandReading, readCommand, type ReadContext, type ReaderFs } from "../shell/shell_reader.ts";
import { diskView, type ReadDep, recordingView } from "../shell/reading_cache.ts";

export { type CommandReading, type PinFolder, readCommand, type ReadContext } from "../shell/shell_reader.ts";
export { MAX_NESTING } from "../shell/shell_syntax.ts";
export { rootVariables } from "./pin_scope.ts";

/** An empty file system: the reading of a command by its text alone. */
const NO_FILES: ReaderFs = { list: () => null, readText: () => null };

/** What makes a command fetch from the network at run time (SPEC §3.5), read from its text alone; or null. */
export function commandFetch(command: string): string | null {
  return readCommand(command, { root: "/", cwd: "/", vars: {}, home: null, env: {}, fs: NO_FILES }).fetch;
}

/** Reads `command` against the disk, with the look-ups it made (to keep the reading, src/shell/reading_cache.ts). */
export function readOnDisk(
  command: string,
  ctx: Omit<ReadContext, "fs">,
): { reading: CommandReading; deps: ReadDep[] } {
  const view = recordingView(diskView);
  return { reading: readCommand(command, { ...ctx, fs: view.fs }), deps: view.deps };
}
