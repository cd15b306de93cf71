/**
 * Runs one command handler (SPEC §7.1): the user's shell, the event's cwd,
 * the hook input on stdin, bounded capture, and a timeout that kills the
 * whole process group. A handler that cannot start or misbehaves is data
 * (a RawCompletion), never an exception. Every run starts through this
 * process's bounded queue (src/runner/spawn_queue.ts): its clock, and so its
 * timeout, starts once it has a slot.
 * @module
 */
import type { CommandSpec, RawCompletion } from "./types.ts";
import { buildShellInvocation, isVisibleFile, killProcessTree, sessionInvocation } from "./shell.ts";
import { currentPlatform } from "../util/paths.ts";
import { capture, CAPTURE_LIMIT, decodeUtf8 } from "./capture.ts";
import { delay } from "../util/timer.ts";
import { trackRunning, unlessEnding } from "./running.ts";
import { type SpawnQueue, spawnQueue } from "./spawn_queue.ts";

/**
 * After the main process exits, how long to keep reading pipes that a
 * background grandchild may still hold open. Past this, what it writes is lost
 * rather than stalling the dispatch.
 */
export const PIPE_GRACE_AFTER_EXIT_MS = 1000;
/** After a timeout kill, the longest extra wait for pipes (SPEC: dispatch returns within timeout + 2 s). */
export const PIPE_GRACE_AFTER_KILL_MS = 1500;

/** Runs the command, once the queue has a slot for it, and returns its raw completion. */
export async function runCommand(spec: CommandSpec): Promise<RawCompletion> {
  const queue = await spawnQueue();
  return await queue.run(async () => {
    // A process ending on a signal starts nothing more (its queued runs are never read).
    await unlessEnding();
    return await runStarted(spec, queue);
  });
}

/** Runs the command now (it holds a slot of `queue`). */
async function runStarted(spec: CommandSpec, queue: SpawnQueue): Promise<RawCompletion> {
  const started = performance.now();
  const base = {
    stdout: "",
    stderr: "",
    exitCode: null,
    signal: null,
    timedOut: false,
    stdoutTruncated: false,
    stderrTruncated: false,
    invalidUtf8: false,
    timeoutSec: spec.timeoutSec,
  };
  const platform = currentPlatform();
  const inv = sessionInvocation(
    buildShellInvocation({
      platform,
      env: { ...Deno.env.toObject(), ...spec.env },
      command: spec.command,
      commandWindows: spec.commandWindows,
      shell: spec.shell,
    }),
    isVisibleFile,
  );
  let child: Deno.ChildProcess;
  try {
    const command = new Deno.Command(inv.program, {
      args: inv.args,
      cwd: spec.cwd,
      env: spec.env,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
      detached: inv.detached,
      windowsRawArguments: inv.windowsRawArguments,
    });
    child = await queue.spawnRetrying(() => command.spawn());
  } catch (e) {
    return {
      ...base,
      spawnError: e instanceof Error ? e.message : String(e),
      durationMs: performance.now() - started,
    };
  }
  const forget = trackRunning(child.pid);
  try {
    spec.onSpawn?.(child.pid);
    const done = await completion(child, spec, { base, started, platform });
    await unlessEnding();
    return done;
  } finally {
    forget();
  }
}

/** Feeds, waits for and reads one started handler (see {@link runCommand}). */
async function completion(
  child: Deno.ChildProcess,
  spec: CommandSpec,
  { base, started, platform }: {
    base: Omit<RawCompletion, "spawnError" | "durationMs">;
    started: number;
    platform: ReturnType<typeof currentPlatform>;
  },
): Promise<RawCompletion> {
  const out = capture(child.stdout, CAPTURE_LIMIT);
  const err = capture(child.stderr, CAPTURE_LIMIT);
  // Feed stdin without awaiting: a hook may exit (or close stdin) before reading it all.
  const writer = child.stdin.getWriter();
  writer.write(new TextEncoder().encode(spec.stdin)).then(() => writer.close())
    .catch(() => {}).finally(() => {
      try {
        writer.releaseLock();
      } catch { /* already released */ }
    });

  // Chunked: a timeout past 2^31 ms (e.g. `timeout = 2200000`) must not fire at once (SPEC §15).
  const timeout = delay(spec.timeoutSec * 1000);
  const winner = await Promise.race([
    child.status.then((s) => ({ s })),
    timeout.promise.then(() => null),
  ]);
  let timedOut = false;
  let status: Deno.CommandStatus;
  if (winner === null) {
    timedOut = true;
    // Not awaited: the SIGTERM→SIGKILL escalation runs while we wait for the exit, keeping
    // the whole dispatch within timeout + 2 s.
    killProcessTree(child.pid, platform).catch(() => {});
    const killed = delay(PIPE_GRACE_AFTER_KILL_MS);
    const s = await Promise.race([
      child.status,
      killed.promise.then(() => null),
    ]);
    killed.cancel();
    status = s ?? { success: false, code: 1, signal: "SIGKILL" };
  } else {
    timeout.cancel();
    status = winner.s;
  }
  // Pipes held open by a detached grandchild must not stall us.
  const grace = delay(timedOut ? 500 : PIPE_GRACE_AFTER_EXIT_MS);
  const both = Promise.all([out.done, err.done]);
  const closed = await Promise.race([
    both.then(() => true),
    grace.promise.then(() => false),
  ]);
  grace.cancel();
  if (!closed) {
    out.stop();
    err.stop();
  }
  const [o, e] = await both;
  const stdout = decodeUtf8(o.bytes);
  const stderr = decodeUtf8(e.bytes);
  return {
    ...base,
    stdout: stdout.text,
    stderr: stderr.text,
    exitCode: timedOut ? null : status.signal ? null : status.code,
    signal: status.signal ?? null,
    timedOut,
    spawnError: null,
    stdoutTruncated: o.truncated,
    stderrTruncated: e.truncated,
    invalidUtf8: stdout.invalid,
    durationMs: performance.now() - started,
  };
}
