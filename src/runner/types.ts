/**
 * What running one handler gives back, whatever ran it (a process or an MCP
 * tool call). Event-agnostic: reading it is the output protocol's job.
 * @module
 */
import type { EventName } from "../events/names.ts";
import type { Dialect } from "../events/types.ts";
import type { ShellKind } from "./shell.ts";
import type { PinRecheck } from "../config/pinning.ts";

/** What to run. */
export type CommandSpec = {
  command: string;
  commandWindows?: string;
  cwd: string;
  /** The hook input JSON. */
  stdin: string;
  /** Added to the engine's environment. */
  env: Record<string, string>;
  timeoutSec: number;
  /** `login` (default) or `sh` for hooks of the Claude dialect (SPEC §7.1). */
  shell?: ShellKind;
  /** Called with the pid once the process started (async runners record it). */
  onSpawn?: (pid: number) => void;
};

/**
 * One async command handler to start (SPEC §7.2): what runs, plus what reading its output later
 * needs — its key, its event, its context limit and the spill root.
 */
export type AsyncJob = Omit<CommandSpec, "onSpawn"> & {
  key: string;
  event: EventName;
  additionalContextLimit: number;
  /** How its output is read (SPEC §8.1). */
  dialect: Dialect;
  /** Root of spilled outputs: the runner spills the handler's context with its own limit. */
  tempDir?: string;
  /** Its pins, checked again right before it starts (SPEC §3.5 r3); absent when it pins nothing. */
  pins?: PinRecheck | null;
};

/** The raw completion of one handler. */
export type RawCompletion = {
  stdout: string;
  stderr: string;
  /** null when the process was killed by a signal, timed out, or never started. */
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  /** Set when the handler could not be started or called at all. */
  spawnError: string | null;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  /** Bytes of stdout that were not valid UTF-8 were replaced. */
  invalidUtf8: boolean;
  durationMs: number;
  /** Timeout that applied, in seconds. */
  timeoutSec: number;
  /**
   * Set when the handler ran but failed outside the output protocol: an http hook's non-2xx status or
   * refused redirect, a model's answer that is not `{"ok": …}` (SPEC §2.2 r4). The reason, one line.
   */
  failure?: string;
  /** What a prompt hook's model answered, as received (`dispatch --explain` shows it; never logged). */
  answer?: string;
};

/**
 * A completion with nothing in it — no output, no exit code, not timed out — with `fields` laid over:
 * the one base every runner (and every test that fakes a run) fills in.
 */
export function rawCompletion(fields: Partial<RawCompletion> = {}): RawCompletion {
  return {
    stdout: "",
    stderr: "",
    exitCode: null,
    signal: null,
    timedOut: false,
    spawnError: null,
    stdoutTruncated: false,
    stderrTruncated: false,
    invalidUtf8: false,
    durationMs: 0,
    timeoutSec: 0,
    ...fields,
  };
}
