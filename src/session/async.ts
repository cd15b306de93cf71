/**
 * Async command handlers (SPEC §7.2). In one-shot `dispatch` they outlive
 * the dispatching process: the dispatcher writes one job file per handler
 * under `$MIND_HOME/tmp/async/<session>/jobs/` and starts a detached runner
 * (`mind-hooks __async-run`) that owns them. The runner takes one of 8 slots
 * per session (a slot is a directory created atomically with `mkdir`), runs
 * the job, and leaves its informational output in `results/`. The next
 * dispatch of the session claims results by an atomic rename, so each is
 * delivered exactly once. A job file is the job's liveness token: session end
 * deletes the jobs, kills what runs, and discards every result.
 * @module
 */
import { join } from "../util/paths.ts";
import { writeFileAtomic } from "../util/atomic_file.ts";
import { safeSessionSegment } from "../util/session_id.ts";
import type { AsyncJob } from "../runner/types.ts";
import type { AsyncResult } from "../schema/result.ts";
import { isVisibleFile, killProcessTree, sessionInvocation, signalGroup, signalProcess } from "../runner/shell.ts";

/** At most this many async handlers run at once per session. */
export const ASYNC_SLOTS = 8;
/** How often a queued job looks for a free slot. */
const SLOT_POLL_MS = 25;

/** Modes of the async folders and files (before the umask, which can only narrow them). */
const PRIVATE_DIR = 0o700;
const PRIVATE_FILE = 0o600;

/** The folder of a session's async jobs and results: `$MIND_HOME/tmp/async/<safe session id>`. */
export function asyncDir(home: string, sessionId: string): string {
  return join(home, "tmp", "async", safeSessionSegment(sessionId));
}

/**
 * This checkout's entry point, located from this module rather than from `Deno.mainModule`: inside
 * the sandbox Worker `Deno.mainModule` is undefined, and when a test or the library calls in
 * directly it names that caller, not main.ts.
 */
const MAIN_URL = new URL("../../main.ts", import.meta.url);

/** A `file:` URL as a local path (on Windows with a drive letter and backslashes). */
function urlPath(url: URL): string {
  const path = decodeURIComponent(url.pathname);
  return Deno.build.os === "windows" ? path.replace(/^\/([A-Za-z]:)/, "$1").replaceAll("/", "\\") : path;
}

/** The argv that re-enters this program (compiled binary, or `deno run` of main.ts with the declared permissions). */
export function selfCommand(): string[] {
  const exec = Deno.execPath();
  const base = exec.replace(/^.*[\\/]/, "").toLowerCase();
  if (base !== "deno" && base !== "deno.exe") return [exec];
  return [
    exec,
    "run",
    "-q",
    "-P",
    "--no-prompt",
    "--config",
    urlPath(new URL("./deno.json", MAIN_URL)),
    urlPath(MAIN_URL),
  ];
}

/**
 * Starts async jobs in a detached runner that outlives this process. Resolves only once every job
 * is durably queued (SPEC §6 r4): each job file written atomically and synced (src/util/atomic_file.ts),
 * then the runner started. Anything failing on the way (a full disk, a folder that cannot be made,
 * a runner that cannot start) withdraws the files already written and throws: then none of the jobs
 * was started, and the dispatch reports them failed, never `started` for a job that cannot run.
 */
export function startDetachedAsync(
  home: string,
): (jobs: AsyncJob[], sessionId: string) => Promise<void> {
  return async (jobs, sessionId) => {
    const dir = asyncDir(home, sessionId);
    const files: string[] = [];
    try {
      // Owner-only: jobs hold the hook input (prompts, tool input), results the hooks' output.
      await Deno.mkdir(join(dir, "jobs"), { recursive: true, mode: PRIVATE_DIR });
      for (const job of jobs) {
        const file = join(dir, "jobs", `${Date.now()}-${crypto.randomUUID()}.json`);
        // The runner is told each file's name; a half-written one is never at that name.
        await writeFileAtomic(file, JSON.stringify({ ...job, sessionId }), { mode: PRIVATE_FILE });
        files.push(file);
      }
      const [program, ...args] = selfCommand();
      // The runner checks the jobs' pins again (SPEC §3.5 r3): from the dispatch's cwd, its sandbox finds
      // (and may read) the same trusted project.
      const cwd = jobs.find((j) => j.pins)?.cwd;
      // A session of its own (it outlives this process and the host's process group), without a fork of it.
      const inv = sessionInvocation({
        program,
        args: [...args, "__async-run", "--home", home, ...(cwd !== undefined ? ["--cwd", cwd] : []), ...files],
        detached: Deno.build.os !== "windows",
        windowsRawArguments: false,
      }, isVisibleFile);
      const child = new Deno.Command(inv.program, {
        args: inv.args,
        stdin: "null",
        stdout: "null",
        stderr: "null",
        detached: inv.detached,
      }).spawn();
      child.unref();
    } catch (e) {
      await Promise.all(files.map((f) => Deno.remove(f).catch(() => {})));
      throw e;
    }
  };
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

function pidAlive(pid: number): boolean {
  try {
    // Signal 0 probes without signalling; signalProcess also works under the sandbox's narrow run list.
    signalProcess(pid, 0);
    return true;
  } catch (e) {
    return !(e instanceof Deno.errors.NotFound);
  }
}

/** True while the hook a slot records (its process group) still has a process. */
async function hookRunning(slot: string): Promise<boolean> {
  const pid = Number(await Deno.readTextFile(join(slot, "pid")).catch(() => "0"));
  if (!Number.isSafeInteger(pid) || pid <= 1) return false;
  try {
    signalGroup(pid, 0);
    return true;
  } catch (e) {
    return !(e instanceof Deno.errors.NotFound);
  }
}

/** Takes a free slot; null when the job file disappeared meanwhile (session ended). */
async function acquireSlot(
  dir: string,
  jobFile: string,
): Promise<string | null> {
  const running = join(dir, "running");
  // Not recursive: if session end already removed the session folder, recreating it here would
  // leave a stray folder behind (and the job is gone anyway).
  if (!(await mkdirQuiet(running))) return null;
  while (true) {
    if (!(await exists(jobFile))) return null;
    for (let i = 0; i < ASYNC_SLOTS; i++) {
      const slot = join(running, `slot-${i}`);
      try {
        await Deno.mkdir(slot);
        await Deno.writeTextFile(join(slot, "owner"), String(Deno.pid));
        return slot;
      } catch (e) {
        // The session folder vanished under us: session end.
        if (e instanceof Deno.errors.NotFound) return null;
        if (!(e instanceof Deno.errors.AlreadyExists)) throw e;
        // Reclaim a slot whose owning runner died without releasing it — unless the hook it started
        // still runs: the slot holds that hook's pid, the only way session end can kill it (SPEC §6 r4).
        const owner = Number(
          await Deno.readTextFile(join(slot, "owner")).catch(() => "0"),
        );
        if (owner > 0 && !pidAlive(owner) && !(await hookRunning(slot))) {
          await Deno.remove(slot, { recursive: true }).catch(() => {});
        }
      }
    }
    await new Promise((r) => setTimeout(r, SLOT_POLL_MS));
  }
}

/** Creates `dir` (its parent must exist); false when the parent is gone. */
async function mkdirQuiet(dir: string): Promise<boolean> {
  try {
    await Deno.mkdir(dir, { mode: PRIVATE_DIR });
  } catch (e) {
    if (e instanceof Deno.errors.AlreadyExists) return true;
    return false;
  }
  return true;
}

/**
 * Records a started hook's pid in its slot, where session end looks for it. Session end may have
 * run between taking the slot and the spawn (it then found no pid to kill, and the slot may be
 * gone): the job file tells, and such a hook is killed at once rather than left running unowned.
 * Checking the job file after writing the pid closes the race: either session end saw the pid, or
 * it had already removed the job file before this check.
 */
function recordPid(slot: string, jobFile: string, pid: number): void {
  let recorded = true;
  try {
    Deno.writeTextFileSync(join(slot, "pid"), String(pid));
  } catch {
    recorded = false;
  }
  let alive = false;
  try {
    alive = Deno.statSync(jobFile).isFile;
  } catch { /* gone: the session ended */ }
  if (!recorded || !alive) killProcessTree(pid).catch(() => {});
}

/**
 * Publishes a result under `results/` (write a hidden temp file, then rename, so a dispatch never
 * reads half of one). Not recursive: a session that ended has no folder to publish into. If the
 * session ended between the caller's check and the rename, the result is withdrawn again so
 * nothing of an ended session is delivered.
 */
async function publishResult(dir: string, jobFile: string, result: AsyncResult): Promise<void> {
  const results = join(dir, "results");
  if (!(await mkdirQuiet(results))) return;
  const final = join(results, `${Date.now()}-${crypto.randomUUID()}.json`);
  try {
    // Its temp file is a dot file that does not end in `.json`: never claimed half-written.
    await writeFileAtomic(final, JSON.stringify(result), { mode: PRIVATE_FILE });
  } catch {
    return;
  }
  if (!(await exists(jobFile))) await Deno.remove(final).catch(() => {});
}

/** Runs the given job files (the detached runner's body). */
export async function runAsyncJobs(jobFiles: string[]): Promise<void> {
  const { runCommand } = await import("../runner/command.ts");
  const { asyncResultOf } = await import("./async_result.ts");
  await Promise.all(jobFiles.map(async (jobFile) => {
    let job: AsyncJob & { sessionId: string };
    try {
      job = JSON.parse(await Deno.readTextFile(jobFile));
    } catch {
      return;
    }
    const dir = jobFile.replace(/[\\/]jobs[\\/][^\\/]+$/, "");
    const slot = await acquireSlot(dir, jobFile);
    if (!slot) return;
    try {
      // Queued behind the 8 slots, it starts later than the dispatch checked it: check its pins again.
      const modified = await pinsChanged(job);
      if (modified !== null) {
        if (await exists(jobFile)) await publishResult(dir, jobFile, notStarted(job, modified));
        return;
      }
      const raw = await runCommand({
        ...job,
        onSpawn: (pid) => recordPid(slot, jobFile, pid),
      });
      // Large context is spilled here, with the handler's own limit (SPEC §10), so the result file
      // already holds what the model may see.
      const result = await asyncResultOf(
        job,
        raw,
        job.tempDir ? { tempDir: job.tempDir, sessionId: job.sessionId } : null,
      );
      // The job file is the liveness token: gone means the session ended and output is discarded.
      if (await exists(jobFile)) await publishResult(dir, jobFile, result);
    } finally {
      await Deno.remove(jobFile).catch(() => {});
      await Deno.remove(slot, { recursive: true }).catch(() => {});
    }
  }));
}

/**
 * Why a queued job must not start now (SPEC §3.5 r3): its pinned files changed since the dispatch
 * checked them (`modified: <path> changed|removed|added`); null when they hold or it pins nothing.
 * A check that fails is a reason too: never run what could not be checked.
 */
export async function pinsChanged(job: AsyncJob): Promise<string | null> {
  if (!job.pins) return null;
  try {
    const { recheckPins } = await import("../config/pinning.ts");
    return await recheckPins(job.pins);
  } catch (e) {
    return `modified: its pinned files could not be checked again (${e instanceof Error ? e.message : String(e)})`;
  }
}

/** The result of a job that was not started because its pins changed while it waited. */
export function notStarted(job: AsyncJob, reason: string): AsyncResult {
  return {
    key: job.key,
    event: job.event,
    status: "failed",
    reason: `${reason} (checked again before it started; not run)`,
    systemMessage: null,
    additionalContext: null,
  };
}

/** Claims and returns the session's completed async results, oldest first; each is delivered once. */
export async function takeAsyncResults(
  home: string,
  sessionId: string,
): Promise<AsyncResult[]> {
  const dir = join(asyncDir(home, sessionId), "results");
  let names: string[];
  try {
    names = [];
    // Synchronous: almost always there is no folder, and an async call waits for another thread.
    for (const e of Deno.readDirSync(dir)) {
      if (e.isFile && e.name.endsWith(".json")) names.push(e.name);
    }
  } catch {
    return [];
  }
  names.sort();
  const out: AsyncResult[] = [];
  for (const name of names) {
    const claimed = join(dir, `.${name}.claimed-${crypto.randomUUID()}`);
    try {
      await Deno.rename(join(dir, name), claimed);
    } catch {
      continue; // another dispatch claimed it first
    }
    try {
      out.push(JSON.parse(await Deno.readTextFile(claimed)));
    } catch { /* a result that cannot be read is dropped */ }
    await Deno.remove(claimed).catch(() => {});
  }
  return out;
}

/** Session end: queued jobs are dropped, running ones killed, undelivered output discarded. */
export async function endSessionAsync(
  home: string,
  sessionId: string,
): Promise<{ killed: number }> {
  const dir = asyncDir(home, sessionId);
  await Deno.remove(join(dir, "jobs"), { recursive: true }).catch(() => {});
  // Kill in parallel: each kill may wait out the SIGTERM grace period, and 8 hooks that ignore
  // SIGTERM must cost one grace period, not eight.
  const pids: number[] = [];
  try {
    for await (const e of Deno.readDir(join(dir, "running"))) {
      const pid = Number(
        await Deno.readTextFile(join(dir, "running", e.name, "pid")).catch(() => "0"),
      );
      if (pid > 1) pids.push(pid);
    }
  } catch { /* nothing running */ }
  await Promise.all(pids.map((pid) => killProcessTree(pid).catch(() => {})));
  const killed = pids.length;
  await Deno.remove(dir, { recursive: true }).catch(() => {});
  return { killed };
}
