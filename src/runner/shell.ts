/**
 * Platform plumbing for command handlers (SPEC §7.1) and for the paths that identify projects and
 * hooks (§2.3, §3.1): how a hook command becomes a process, how a timed-out handler is killed with
 * everything it started, and how Windows and POSIX paths are made canonical and walked upwards.
 *
 * Everything except {@linkcode killProcessTree} and {@linkcode currentPlatform} is pure and takes the
 * platform as an argument, so both platforms are unit-tested on any OS.
 *
 * ## What was verified on Deno 2.9.6 (Linux x86_64), and what follows from it
 *
 * - `Deno.CommandOptions.detached: true` calls `setsid()` in the child before `exec` (unix only):
 *   the child's pid, process-group id and session id are all equal, while a child spawned without it
 *   shares the engine's process group. Without it, killing `sh` leaves `sh`'s own children running
 *   (seen: a `sleep` reparented to init, still in the engine's group). So POSIX handlers are spawned
 *   detached, which makes the handler's pid the id of a group that holds all its descendants (unless
 *   one of them calls `setsid`/`setpgid` itself: such a deliberate escape is out of reach of any
 *   group kill).
 * - `Deno.kill(-pid, signal)` signals the whole group (documented, and seen: a backgrounded
 *   grandchild in the group died with its parent). A group that no longer exists throws
 *   `Deno.errors.NotFound` (ESRCH). `Deno.kill(-pid, 0)` probes the group without signalling it.
 *   Members that have died but are not yet reaped (zombies, e.g. grandchildren reparented to an init
 *   that reaps slowly) still count as members for that probe, so the probe can only shorten the grace
 *   period, never lengthen it.
 * - `detached: true` also turns off Deno's kill-on-drop for that child: if the engine itself dies, a
 *   detached handler is not killed with it. The runner kills it on timeout; nothing else needs it.
 * - `Deno.CommandOptions.windowsRawArguments` exists (documented "skips quoting and escaping of the
 *   arguments on windows", ignored elsewhere). Deno implements it with Rust's
 *   `std::os::windows::process::CommandExt::raw_arg`: each arg is appended to the command line
 *   verbatim after one space (the program name is still quoted as usual). Without it, Deno/Rust quote each
 *   argument by the MSVC C-runtime rules (wrap in `"…"`, escape inner quotes as `\"`). `cmd.exe` does
 *   not parse its command line by those rules: it does not understand `\"`, so `echo "a b"` would
 *   arrive as `echo \"a b\"`. Hence the Windows invocation below builds cmd's own syntax and passes
 *   it raw. (`detached` is not used on Windows: the tree is killed with `taskkill /T` instead.)
 *
 * @module
 */

import { currentPlatform, type Platform } from "../util/paths.ts";

/**
 * How to start a hook command. Pass the fields straight to `Deno.Command`:
 *
 * ```ts ignore
 * const inv = buildShellInvocation({ platform: currentPlatform(), env, command });
 * const child = new Deno.Command(inv.program, {
 *   args: inv.args,
 *   detached: inv.detached,
 *   windowsRawArguments: inv.windowsRawArguments,
 *   cwd, env, stdin: "piped", stdout: "piped", stderr: "piped",
 * }).spawn();
 * ```
 *
 * `program` and `args` are the §7.1 invocation; the two flags are what makes
 * {@linkcode killProcessTree} and cmd.exe's quoting work.
 */
export type ShellInvocation = {
  /** The shell executable (`$SHELL`, `/bin/sh`, `%COMSPEC%` or `cmd.exe`). */
  program: string;
  /** Its arguments; on Windows, raw command-line fragments (see `windowsRawArguments`). */
  args: string[];
  /**
   * `true` on POSIX: the child calls `setsid()`, so its pid names a process group holding every
   * process it starts, which is what {@linkcode killProcessTree} signals. `false` on Windows.
   */
  detached: boolean;
  /**
   * `true` on Windows: `args` are written to the command line as they are, because they are already
   * in cmd.exe's syntax. Ignored by Deno on other platforms; `false` there.
   */
  windowsRawArguments: boolean;
};

/**
 * The program that makes a hook's shell lead a session of its own without a fork of this process
 * (util-linux's or busybox's `setsid`, which calls `setsid()` and execs its arguments). Deno's
 * `detached: true` forks the whole engine to call `setsid()` in the child, a cost that grows with the
 * engine's memory (1.2 ms at 45 MB, 7.6 ms at 150 MB resident: the daemon, a dispatch with its sandbox
 * Worker, 64 hooks started one after another), while a spawn without it does not (0.4–0.6 ms).
 */
export const SETSID = "/usr/bin/setsid";

/**
 * `inv` started in a session of its own through {@link SETSID}, where `exists` finds both it and the
 * shell `inv` starts (so that a missing shell stays a spawn error, not `setsid`'s exit 127); else
 * `inv` itself (Deno forks, and the child calls `setsid()`). The pid is the session's and the process
 * group's either way (`setsid` execs the shell in place), which is what {@linkcode killProcessTree}
 * signals; see there for the moment before `setsid()` ran.
 */
export function sessionInvocation(inv: ShellInvocation, exists: (path: string) => boolean): ShellInvocation {
  if (!inv.detached || !inv.program.startsWith("/") || !exists(SETSID) || !exists(inv.program)) return inv;
  return { ...inv, program: SETSID, args: [inv.program, ...inv.args], detached: false };
}

/** Whether `path` is a file this process may see (a sandbox that cannot stat it: no): `sessionInvocation`'s `exists`. */
export function isVisibleFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/** How a POSIX hook command is started: the user's login shell (mind), or plain `/bin/sh -c` (Claude Code). */
export type ShellKind = "login" | "sh";

/**
 * Reads an environment variable the way the platform does: Windows names are case-insensitive
 * (the variable is usually spelled `ComSpec`, and a record from `Deno.env.toObject()` keeps that
 * spelling), POSIX names are exact. An empty value counts as unset, as a shell would treat it.
 */
function envLookup(
  env: Record<string, string | undefined>,
  name: string,
  platform: Platform,
): string | undefined {
  if (platform === "posix") return env[name] || undefined;
  const upper = name.toUpperCase();
  for (const [key, value] of Object.entries(env)) {
    if (key.toUpperCase() === upper && value) return value;
  }
  return undefined;
}

/**
 * Builds the §7.1 shell invocation of a command handler.
 *
 * - POSIX: `[$SHELL or "/bin/sh", "-lc", command]`, `detached: true`. `-l` makes it a login shell,
 *   as the spec says, so the user's profile sets up PATH the way their terminal has it. (`csh`/`tcsh`
 *   accept `-l` only as the sole flag; users with such a login shell should set `SHELL` for the host.)
 * - Windows: `[%COMSPEC% or "cmd.exe", "/S", "/C", "\"" + command + "\""]` with
 *   `windowsRawArguments: true`, where the command is `commandWindows` when it is set and non-empty,
 *   else `command`. The command line cmd.exe receives therefore ends in
 *   `/S /C "<command>"`, the command exactly as written. With `/S`, cmd removes exactly the first and
 *   the last quote character after `/C` and runs the rest unchanged, so every quote, `&`, `|`, `%VAR%`
 *   and caret in the command means what it would at a cmd prompt. Without `/S`, cmd applies a
 *   heuristic (keep the quotes when there are exactly two, no special characters, whitespace inside,
 *   and the quoted text names an executable) that would make the result depend on the command's text.
 *   `/S` changes only that quote handling, not what §7.1's `/C` means. `/D` (skip the AutoRun
 *   registry commands) is deliberately not passed, mirroring `-l` on POSIX: the user's own shell
 *   set-up runs.
 *
 * Windows limits that quoting cannot lift: cmd.exe runs only the first line of a command with line
 * breaks (join lines with `&` or call a script), and a command line is at most 8191 characters.
 *
 * - POSIX, `shell: "sh"` (hooks of the Claude dialect, SPEC §7.1): `["/bin/sh", "-c", command]`, as
 *   Claude Code starts them (Node's `shell: true`): no login profile, so the agent's PATH reaches the
 *   hook unchanged and nothing a profile prints lands in front of the hook's JSON.
 *
 * @param opts.platform which shell model to use (usually {@linkcode currentPlatform}).
 * @param opts.env the environment the handler will get; only `SHELL` / `COMSPEC` are read.
 * @param opts.command the handler's `command`.
 * @param opts.commandWindows the handler's `commandWindows`, used on Windows only.
 * @param opts.shell `login` (default: the user's login shell) or `sh` (plain `/bin/sh -c`); POSIX only.
 */
export function buildShellInvocation(opts: {
  platform: Platform;
  env: Record<string, string | undefined>;
  command: string;
  commandWindows?: string;
  shell?: ShellKind;
}): ShellInvocation {
  const { platform, env, command, commandWindows } = opts;
  if (platform === "posix" && opts.shell === "sh") {
    return { program: "/bin/sh", args: ["-c", command], detached: true, windowsRawArguments: false };
  }
  if (platform === "posix") {
    return {
      program: envLookup(env, "SHELL", platform) ?? "/bin/sh",
      args: ["-lc", command],
      detached: true,
      windowsRawArguments: false,
    };
  }
  // An empty commandWindows is treated like an absent one (an empty command is not a command).
  const text = commandWindows || command;
  return {
    program: envLookup(env, "COMSPEC", platform) ?? "cmd.exe",
    args: ["/S", "/C", `"${text}"`],
    detached: false,
    windowsRawArguments: true,
  };
}

/** §7.1: SIGTERM, then SIGKILL after 1 s. */
export const DEFAULT_KILL_GRACE_MS = 1000;

/** Send `signal` to the process group whose id is the handler's pid, `afterMs` after the kill starts. */
export type SignalStep = {
  signal: "SIGTERM" | "SIGKILL";
  target: "group";
  afterMs: number;
};
/** Run this command (argv), `afterMs` after the kill starts; its exit status does not matter. */
export type RunStep = { run: string[]; afterMs: number };
/** The steps that end a handler and everything it started, in order. */
export type KillPlan = { steps: Array<SignalStep | RunStep> };

/**
 * The kill plan for a timed-out handler (§7.1). `afterMs` is measured from the start of the kill,
 * not from the previous step.
 *
 * - POSIX: SIGTERM to the group `-pid` at 0 ms, SIGKILL to the group at `graceMs` (default 1000).
 *   The handler must have been spawned with {@linkcode ShellInvocation.detached} so that its pid is a
 *   group id.
 * - Windows: `taskkill /T /F /PID <pid>` at 0 ms. There are no signals to ask politely with (`taskkill`
 *   without `/F` posts WM_CLOSE, which console programs never read), so the tree is ended at once.
 *   `taskkill` is taken from `%SystemRoot%\System32` when `systemRoot` is given, so that a
 *   `taskkill.exe` in a project directory or early on PATH is never the one that runs. `/T` follows
 *   parent pids: a grandchild whose parent already exited is no longer reachable from the handler's
 *   pid (Windows has no process groups that Deno can use; a job object would be needed).
 *
 * @param platform which process model.
 * @param pid the handler's pid (the shell's).
 * @param options.graceMs POSIX delay between SIGTERM and SIGKILL; default {@linkcode DEFAULT_KILL_GRACE_MS}.
 * @param options.systemRoot Windows `%SystemRoot%`, to locate `taskkill.exe`.
 */
export function killPlan(
  platform: Platform,
  pid: number,
  options: { graceMs?: number; systemRoot?: string } = {},
): KillPlan {
  assertKillablePid(pid);
  const graceMs = Math.max(0, options.graceMs ?? DEFAULT_KILL_GRACE_MS);
  if (platform === "posix") {
    return {
      steps: [
        { signal: "SIGTERM", target: "group", afterMs: 0 },
        { signal: "SIGKILL", target: "group", afterMs: graceMs },
      ],
    };
  }
  const root = options.systemRoot?.replace(/[\\/]+$/, "");
  const taskkill = root ? `${root}\\System32\\taskkill.exe` : "taskkill.exe";
  return {
    steps: [{ run: [taskkill, "/T", "/F", "/PID", String(pid)], afterMs: 0 }],
  };
}

/**
 * Refuses pids whose group kill would hit far more than a handler: `kill(-0)` is the caller's own
 * group, `kill(-1)` is every process the user may signal, and the engine's own pid would be its own
 * group if it leads one. A bug elsewhere must not turn a hook timeout into that.
 */
function assertKillablePid(pid: number): void {
  if (!Number.isSafeInteger(pid) || pid <= 1) {
    throw new RangeError(`refusing to kill process tree of pid ${pid}`);
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Signals `pid` alone when its group is not there: a hook started through {@link SETSID} that has
 * not called `setsid()` yet is still in the engine's own group, and must not outlive a kill sent in
 * that moment. True when it was signalled (the escalation goes on), false when it is gone too.
 */
async function signalLoneProcess(pid: number, signal: Deno.Signal | 0): Promise<boolean> {
  try {
    assertKillablePid(pid);
    await sendSignalAsync(pid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * Signals a process group (signal 0 = probe). `Deno.kill` needs an unrestricted `run` permission;
 * the sandbox (src/sandbox/) grants `run` for the hook shell and `/bin/sh` only, so there the signal
 * is sent by `/bin/sh`'s `kill` builtin instead. Throws `Deno.errors.NotFound` for a group that
 * does not exist (ESRCH) and `PermissionDenied` for one the engine may not signal (EPERM), like
 * `Deno.kill`.
 */
export function signalGroup(pid: number, signal: Deno.Signal | 0): void {
  assertKillablePid(pid);
  sendSignal(-pid, signal);
}

/** Signals one process (signal 0 = probe), with the same fallback and errors as {@linkcode signalGroup}. */
export function signalProcess(pid: number, signal: Deno.Signal | 0): void {
  assertKillablePid(pid);
  sendSignal(pid, signal);
}

/** Whether `Deno.kill` may be used: false once it was refused (a narrowed `run`, which stays narrowed). */
let killCapable = true;

/** Tries `Deno.kill`; false when the permission set refuses it (then `/bin/sh` must send the signal). */
function tryDenoKill(target: number, signal: Deno.Signal | 0): boolean {
  if (!killCapable) return false;
  try {
    Deno.kill(target, signal as Deno.Signal);
    return true;
  } catch (e) {
    if (!(e instanceof Deno.errors.NotCapable)) throw e;
    killCapable = false;
    return false;
  }
}

/** `/bin/sh` sending `signal` to `target` with its `kill` builtin. */
function shellKill(target: number, signal: Deno.Signal | 0): Deno.Command {
  // `kill -SIG -PGID` (not `kill -s SIG -- -PGID`): the form dash, bash and zsh all accept.
  const flag = signal === 0 ? "-0" : `-${signal.replace(/^SIG/, "")}`;
  return new Deno.Command("/bin/sh", {
    args: ["-c", `kill ${flag} ${target}`],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
    clearEnv: true,
    env: { PATH: "/usr/bin:/bin" },
  });
}

/** The error of a failed shell `kill`, as `Deno.kill` would throw it. */
function shellKillResult(out: Deno.CommandOutput, target: number): void {
  if (out.success) return;
  const why = new TextDecoder().decode(out.stderr).trim();
  if (/not permitted|permission/i.test(why)) throw new Deno.errors.PermissionDenied(why);
  throw new Deno.errors.NotFound(why || `no process ${target}`);
}

function sendSignal(target: number, signal: Deno.Signal | 0): void {
  if (!tryDenoKill(target, signal)) shellKillResult(shellKill(target, signal).outputSync(), target);
}

/**
 * {@linkcode signalGroup}, without blocking the event loop: where the shell must send the signal, it
 * is awaited instead of run synchronously (~3 ms a spawn, every 25 ms of a kill's grace period, while
 * other hooks' output is being read).
 */
async function signalGroupAsync(pid: number, signal: Deno.Signal | 0): Promise<void> {
  assertKillablePid(pid);
  await sendSignalAsync(-pid, signal);
}

/** {@linkcode sendSignal}, awaiting `/bin/sh`'s `kill` where it must send the signal. */
async function sendSignalAsync(target: number, signal: Deno.Signal | 0): Promise<void> {
  if (!tryDenoKill(target, signal)) shellKillResult(await shellKill(target, signal).output(), target);
}

/** True when no process of the group exists any more (ESRCH); zombies still count as existing. */
async function groupGone(pid: number): Promise<boolean> {
  try {
    await signalGroupAsync(pid, 0);
    return false;
  } catch (e) {
    return e instanceof Deno.errors.NotFound;
  }
}

/**
 * Polls until the group is gone or `ms` elapsed; resolves true when it is gone. Timed on the monotonic
 * clock (SPEC §6 r4): a wall clock stepped back (NTP, a suspended laptop) must not stretch the grace.
 */
async function waitGroupGone(pid: number, ms: number): Promise<boolean> {
  const deadline = performance.now() + ms;
  while (performance.now() < deadline) {
    if (await groupGone(pid)) return true;
    await sleep(Math.min(25, Math.max(1, deadline - performance.now())));
  }
  return await groupGone(pid);
}

/**
 * Executes {@linkcode killPlan} for a handler's process tree and resolves when the plan is done
 * (POSIX: at most `graceMs` plus a few ms; earlier when the group is gone after SIGTERM).
 *
 * It never throws for the races a timeout lives with: a group or process that already exited
 * (ESRCH), or one the engine may not signal (EPERM, e.g. a hook that ran `sudo`), ends the kill
 * quietly, and a failing `taskkill` (it exits 128 when the pid is gone) is ignored. It does throw
 * `RangeError` for pids ≤ 1 (see {@linkcode killPlan}) and Deno's `NotCapable` when the `run`
 * permission is missing, which are bugs, not races.
 *
 * Waiting for the handler's stdout/stderr to close is the caller's business: a descendant that left
 * the group (or, on Windows, lost its parent) can keep a pipe open, so the runner must stop reading
 * at its own deadline (§7.1: timeout + 2 s).
 *
 * @param pid the pid of a handler spawned from {@linkcode buildShellInvocation}.
 * @param platform defaults to {@linkcode currentPlatform}.
 * @param graceMs POSIX delay before SIGKILL; default {@linkcode DEFAULT_KILL_GRACE_MS}.
 */
export async function killProcessTree(
  pid: number,
  platform: Platform = currentPlatform(),
  graceMs: number = DEFAULT_KILL_GRACE_MS,
): Promise<void> {
  const systemRoot = platform === "windows" ? Deno.env.get("SystemRoot") : undefined;
  const plan = killPlan(platform, pid, { graceMs, systemRoot });
  // The monotonic clock: the SIGKILL comes `graceMs` after the SIGTERM whatever the wall clock does.
  const start = performance.now();
  for (const step of plan.steps) {
    const wait = step.afterMs - (performance.now() - start);
    if ("signal" in step) {
      // Before an escalation, stop early when SIGTERM already did the job.
      if (wait > 0 && await waitGroupGone(pid, wait)) return;
      try {
        await signalGroupAsync(pid, step.signal);
      } catch (e) {
        if (e instanceof Deno.errors.NotFound && await signalLoneProcess(pid, step.signal)) continue;
        if (
          e instanceof Deno.errors.NotFound ||
          e instanceof Deno.errors.PermissionDenied
        ) return;
        throw e;
      }
    } else {
      if (wait > 0) await sleep(wait);
      const [program, ...args] = step.run;
      try {
        await new Deno.Command(program, {
          args,
          stdin: "null",
          stdout: "null",
          stderr: "null",
        }).spawn().status;
      } catch (e) {
        // taskkill missing (NotFound) leaves nothing else to try; permission errors are bugs.
        if (!(e instanceof Deno.errors.NotFound)) throw e;
      }
    }
  }
}
