/**
 * The shapes the command reader's parts share (SPEC §3.5 r3): one expanded simple command, where its
 * input comes from, the possible current folders, and the {@link Sink} the program models
 * (src/shell/programs.ts, src/shell/interpreters.ts, src/shell/project_tools.ts) tell the reader
 * (src/shell/shell_reader.ts) what they found through.
 * @module
 */
import type { Field, PinFolder, Value } from "./shell_reader.ts";

/** The possible current folders, or the construct that made them unknown. */
export type Dirs = { list: string[] } | { unknown: string };

/** What a command gives the next one of its pipeline. */
export type PipeFrom = { fetch: boolean; cat: boolean };

/** Where a command's standard input comes from. */
export type Stdin =
  | { kind: "none" }
  | { kind: "pipe"; from: PipeFrom }
  | { kind: "here"; what: string }
  | { kind: "file"; field: Field };

/** One simple command, expanded. */
export type Command = {
  argv: Field[];
  /** Its prefix assignments (`PYTHONPATH=lib python3 …`), and `env NAME=value`. */
  env: Map<string, Value>;
  stdin: Stdin;
  dirs: Dirs;
  /** Set when `xargs` appends words read from its input (which nobody can know). */
  xargs: string | null;
};

/** What a program model can tell the reader (src/shell/shell_reader.ts). */
export interface Sink {
  readonly root: string;
  /** A word naming a file: `run` marks an unknown value unpinnable; `suffixes` are tried too. */
  path(f: Field, role: "run" | "data", dirs: Dirs, suffixes?: readonly string[]): void;
  /** Candidate texts relative to each base (`""`: the text is absolute). */
  relative(texts: readonly string[], bases: readonly string[]): void;
  folder(f: Field, why: PinFolder["why"], dirs: Dirs, names?: string[], of?: string): void;
  /** Notes a function or alias the command defines: calling it runs what was read of its body. */
  define(name: string): void;
  isDefined(name: string): boolean;
  /** Whether a bare program name resolves, along the PATH the command runs with, to a file inside the root. */
  resolvesInRoot(prog: Field, cmd: Command): boolean;
  /** A shell script run or sourced: its text read by the same reader (or its folder's code, the fallback). */
  shellScript(f: Field, dirs: Dirs, args: Field[], how: "run" | "source"): void;
  /** A script whose closure its language's model gives (no script-folder fallback for it). */
  modelledScript(f: Field, dirs: Dirs): void;
  markUnpinnable(what: string): void;
  /**
   * Notes a program the command runs (its name, or the interpreter a script's `#!` names): the loader
   * variables it inherits that this program reads are judged now (src/shell/loader_vars.ts `readersOf`).
   */
  programRuns(name: string): void;
  markFetch(what: string): void;
  nested(
    text: string,
    opts?: { args?: Field[]; zero?: Field; dirs?: Dirs; subshell?: boolean; pathPrefix?: string },
  ): void;
  split(text: string): Field[];
  chdir(target: Field | null, how: "cd" | "pushd" | "popd"): void;
  dirsAt(text: string, dirs: Dirs): Dirs;
  assign(name: string, value: Value): void;
  /** `set -- words`: the new `$1`…; null: unknown (the construct). */
  setArgs(args: Field[] | null, construct?: string): void;
  /** `shift n`. */
  shiftArgs(n: number): void;
  variable(cmd: Command, name: string): Value;
  readText(path: string): string | null;
}

/** A plain field of literal text. */
export function field(text: string): Field {
  return { text, glob: null, unknown: null };
}

/** The last path segment. */
export function basename(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}
