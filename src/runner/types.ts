/**
 * What running one handler gives back, whatever ran it (a process or an MCP
 * tool call). Event-agnostic: reading it is the output protocol's job.
 * @module
 */

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
};
