/**
 * Runs one CLI command inside the sandbox (SPEC §15): the entry point resolves the plan of this run
 * (src/sandbox/plan.ts), starts the command line's own module again as a Worker whose Deno
 * permissions are exactly the plan (the `worker-options` unstable feature, enabled in deno.json and
 * honoured by `deno compile`), and relays the exit code. Inside the Worker the same `main()` runs the
 * command for real.
 *
 * Why the command line's module (src/cli/main.ts, or the dispatch bundle built from it, whichever
 * runs) is the Worker's module: a Worker loads its main module's graph as a program does, while a
 * computed `import()` inside it would need read access to the engine's own files, which the plan does
 * not grant. main.ts, which picks the module by a computed specifier, is therefore not the Worker's.
 *
 * The command receives its I/O from here ({@link RunIo}) rather than from globals: `dispatch` reads
 * its event from stdin before the Worker starts, because the event's `cwd` decides which `.mind/`
 * chain the project search may read, and the Worker's `io.stdin()` hands it those bytes; a Worker's
 * `io.exit()` asks the launcher to end the process (a Worker cannot end it itself).
 *
 * Which commands, and what each is granted, come from the needs its entry in the command table
 * declares (src/sandbox/needs.ts); where a run starts is one pure decision ({@link runStart}): a
 * dispatch may start on the fast path, in this thread, and comes back with {@link SandboxNeeded}
 * (having written nothing) when a stranger's hook matched or a plugin or `--hooks-file` appeared
 * (src/config/fast_path_guard.ts, SECURITY.md). Then the Worker runs it: when a stranger's hook
 * matched, it goes on from what the fast path prepared (the event read, the configuration loaded,
 * the hooks selected: {@link preparedAgrees}) to the pins, the verdict and the run; when a plugin or
 * `--hooks-file` appeared, it reads everything itself.
 *
 * `MIND_HOOKS_SANDBOX=off` runs commands without the Worker (measurement and diagnosis only;
 * `doctor` says so loudly).
 * @module
 */
import { buildPlan, type PlanFacts, resolveFacts, type SandboxPlan, workerPermissions } from "./plan.ts";
import type { StrangerFiles } from "../config/fast_path_guard.ts";
import type { Ready, SandboxNeeded } from "../engine/types.ts";
import { readStdinBytes, readStdinBytesSync } from "../util/stdio.ts";
import { hoistLeadingOptions, type ParsedArgs } from "../util/args.ts";
import { engineCliOptions } from "../engine/settings.ts";
import { setLauncherPathFacts } from "../util/path_facts.ts";
import { handlerModule } from "../config/handler_types/registry.ts";
import type { SandboxNeeds } from "./needs.ts";
import { projectInReach, type Reach, reach } from "./reach.ts";

/**
 * The I/O a command gets from the sandbox: its stdin (bytes the launcher may have read already), and
 * a way to end the whole process (a long-lived command whose children or timers must not keep it alive).
 */
export type RunIo = {
  stdin(): Promise<Uint8Array>;
  exit(code: number): never;
  /**
   * `"refuse"` on the dispatch fast path (src/config/fast_path_guard.ts): the command answers
   * {@link SandboxNeeded}, having written nothing, instead of parsing a plugin or a `--hooks-file` or
   * running a hook a stranger wrote; the launcher then runs it in the Worker. Absent: it does all of them.
   */
  strangers?: StrangerFiles;
  /** In the Worker: what the launcher's fast path prepared for this event (the dispatch goes on from it). */
  prepared?: Ready;
};

/** The I/O of a command that runs in this very thread of the process (on the fast path: `strangers`). */
function processIo(bytes: Uint8Array | null, strangers?: StrangerFiles): RunIo {
  return {
    stdin: () => bytes ? Promise.resolve(bytes) : readStdinBytes(),
    exit: (code) => Deno.exit(code),
    ...(strangers ? { strangers } : {}),
  };
}

/** The exit code of a run that was not on the fast path (which alone may answer {@link SandboxNeeded}). */
function exitCode(r: number | SandboxNeeded): number {
  return typeof r === "number" ? r : 2;
}

/** The Worker name prefix that marks code running inside the sandbox. */
export const SANDBOX_WORKER_NAME = "mind-hooks-sandbox";

/** Messages from the launcher to the Worker. */
type InitMessage = {
  mode: "run" | "plan-mcp";
  plan: SandboxPlan;
  stdin: Uint8Array | null;
  /** What the fast path prepared for this event ({@link SandboxNeeded}); absent: the Worker reads it all. */
  prepared?: Ready;
  /** The dispatch's own arguments when the process's are not its (the warm daemon's planning pass). */
  args?: ParsedArgs;
};
/** Messages from the Worker to the launcher. */
type ReplyMessage =
  | { type: "done"; code: number }
  | { type: "exit"; code: number }
  | { type: "mcp"; hosts: string[]; programs: string[] };

let currentPlan: SandboxPlan | null = null;
/** The module the sandbox Worker runs: the command line's own (given by {@link runInSandbox}). */
let workerModule = "";

/** True in the sandbox Worker. */
export function insideSandbox(): boolean {
  // A Worker's global has `name` and `postMessage`; the main thread's has neither as own values.
  const g = globalThis as unknown as { name?: unknown; postMessage?: unknown; document?: unknown };
  return typeof g.name === "string" && typeof g.postMessage === "function" && g.name.startsWith(SANDBOX_WORKER_NAME);
}

/** The plan this run is sandboxed with; null outside the sandbox (or with MIND_HOOKS_SANDBOX=off). */
export function sandboxPlan(): SandboxPlan | null {
  return currentPlan;
}

/** True when the environment turns the sandbox off. */
export function sandboxDisabled(env: Record<string, string | undefined> = Deno.env.toObject()): boolean {
  return env.MIND_HOOKS_SANDBOX === "off";
}

/**
 * Runs `run` (the command `name`, parsed as `args`, with the sandbox `needs` its entry declares) in
 * the sandbox: in the launcher, starts the Worker and returns its exit code; inside the Worker, runs
 * the command. `mainModule` is the URL of the module that calls this (the command line's,
 * src/cli/main.ts or its bundle): the Worker runs it again. Throws only what `run` throws inside.
 */
export async function runInSandbox(
  name: string,
  needs: SandboxNeeds,
  args: ParsedArgs,
  run: (io: RunIo) => Promise<number | SandboxNeeded>,
  mainModule: string,
): Promise<number> {
  if (insideSandbox()) return await runInside(args, run);
  if (sandboxDisabled()) return exitCode(await run(processIo(null)));
  // The warm daemon (SPEC §13 r4): every event it serves takes the fast path's guard.
  workerModule = mainModule;
  // Its warm Workers for strangers' hooks (src/sandbox/warm.ts) run this same module.
  if (needs.resident) return exitCode(await run(processIo(null, "refuse")));
  return await launch(name, needs, args, run);
}

// ---------------------------------------------------------------------------------------------
// Inside the Worker

function post(msg: ReplyMessage): void {
  (self as unknown as { postMessage(m: unknown): void }).postMessage(msg);
}

async function receiveInit(): Promise<InitMessage> {
  return await new Promise<InitMessage>((resolve) => {
    self.addEventListener("message", (e) => resolve((e as MessageEvent<InitMessage>).data), { once: true });
  });
}

async function runInside(args: ParsedArgs, run: (io: RunIo) => Promise<number | SandboxNeeded>): Promise<number> {
  const init = await receiveInit();
  currentPlan = init.plan;
  setLauncherPathFacts(init.plan.facts.pathFacts ?? {});
  if (init.mode === "plan-mcp") {
    const found = await (await import("./mcp_plan.ts")).mcpNeeds(init.plan, init.args ?? args);
    post({ type: "mcp", ...found });
    return 0;
  }
  const io: RunIo = {
    ...(init.prepared ? { prepared: init.prepared } : {}),
    stdin: () => init.stdin ? Promise.resolve(init.stdin) : readStdinBytes(),
    // A Worker cannot end the process, and `Deno.exit` would end only the Worker and lose the code:
    // the launcher exits the process, and this thread blocks until it does.
    exit: (code) => {
      post({ type: "exit", code });
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
      throw new Error("unreachable");
    },
  };
  try {
    const code = exitCode(await run(io));
    post({ type: "done", code });
    return code;
  } catch (e) {
    // main() prints the error and decides the exit code after this rethrow; main.ts stores it in
    // Deno.exitCode (this Worker's own) before any timer runs, so the code is read from there.
    setTimeout(() => post({ type: "done", code: Deno.exitCode }), 0);
    throw e;
  }
}

// ---------------------------------------------------------------------------------------------
// In the launcher

/** The `cwd` field of a dispatch event, when the bytes are a JSON object holding one. */
function eventCwd(bytes: Uint8Array): string | undefined {
  try {
    const v = JSON.parse(new TextDecoder().decode(bytes));
    return v && typeof v === "object" && typeof v.cwd === "string" && v.cwd !== "" ? v.cwd : undefined;
  } catch {
    return undefined;
  }
}

/** The options the sandbox Worker of `plan` is started with: its permissions are exactly
 * {@link workerPermissions} of the plan, the one function `doctor` prints from. */
export function workerOptions(plan: SandboxPlan): WorkerOptions {
  return {
    type: "module",
    name: `${SANDBOX_WORKER_NAME}:${plan.command}`,
    deno: { permissions: workerPermissions(plan) },
  };
}

/** Starts a sandbox Worker of `plan` on the command line's module (the warm daemon keeps some, src/sandbox/warm.ts). */
export function startWorker(plan: SandboxPlan): Worker {
  return new Worker(workerModule, workerOptions(plan));
}

/** Runs one Worker to completion; resolves with its reply, or rejects with its uncaught error. */
function converse(worker: Worker, init: InitMessage): Promise<ReplyMessage> {
  return new Promise<ReplyMessage>((resolve, reject) => {
    worker.onmessage = (e: MessageEvent<ReplyMessage>) => resolve(e.data);
    worker.onerror = (e: ErrorEvent) => {
      e.preventDefault();
      reject(new Error(e.message || "the sandbox worker failed"));
    };
    worker.postMessage(init, init.stdin ? [init.stdin.buffer as ArrayBuffer] : []);
  });
}

/** The MCP part of the plan, found by loading the configuration inside a read-only sandbox. */
async function planMcp(plan: SandboxPlan, args?: ParsedArgs): Promise<{ hosts: string[]; programs: string[] }> {
  const readOnly: SandboxPlan = { ...plan, write: false, run: false, net: false };
  const worker = startWorker(readOnly);
  try {
    const reply = await converse(worker, { mode: "plan-mcp", plan: readOnly, stdin: null, ...(args ? { args } : {}) });
    return reply.type === "mcp" ? { hosts: reply.hosts, programs: reply.programs } : { hosts: [], programs: [] };
  } finally {
    worker.terminate();
  }
}

/**
 * The plan the launcher would run this dispatch (the command `name`)'s Worker with (after the fast path handed it over),
 * for `args` and the event `stdin`, with this process's environment and cwd (the warm daemon sets
 * them to its client's): what is in reach, the pinned files' root, the MCP planning pass. With it,
 * what the fast path prepared when the Worker may go on from it ({@link preparedAgrees}), else null.
 */
export async function dispatchPlan(
  name: string,
  needs: SandboxNeeds,
  args: ParsedArgs,
  stdin: Uint8Array,
  prepared: Ready | null,
): Promise<{ plan: SandboxPlan; prepared: Ready | null }> {
  const env = Deno.env.toObject();
  const input = {
    command: name,
    needs,
    args,
    env,
    processCwd: Deno.cwd(),
    eventCwd: eventCwd(stdin),
    pinRoots: [] as string[],
  };
  const facts = resolveFacts(input);
  // What the daemon's fast path read is what is in reach (its configuration kept fresh); else read.
  const r = (needs.pins !== "any-project" && prepared !== null ? reachOfPrepared(prepared) : null) ??
    await reach(facts, args, env, { anyProject: needs.pins === "any-project" });
  input.pinRoots = r.pinRoot !== null ? [r.pinRoot] : [];
  const plan = await buildPlan(input);
  const agreed = prepared !== null && preparedAgrees(r, prepared) ? prepared : null;
  return { plan: r.mcp ? await buildPlan({ ...input, mcp: await planMcp(plan, args) }) : plan, prepared: agreed };
}

/**
 * Whether a stranger's file is in reach of a dispatch from the plan's cwd: a project's `.mind/` files
 * are parsed only when the project is trusted (in the user's config.toml or by `-c`); plugins are
 * loaded when configured; `--hooks-file` files whenever given. Decided from the parsed user
 * configuration (src/sandbox/reach.ts). Returns the reason, or null: only the user's and the
 * administrator's files are parsed.
 */
export async function sandboxReason(plan: { facts: PlanFacts }, args: ParsedArgs): Promise<string | null> {
  return (await reach(plan.facts, args, Deno.env.toObject())).sandbox;
}

/** What `dispatch` says on stderr when its stdin is a terminal. */
export const DISPATCH_AT_TERMINAL =
  `mind-hooks dispatch: reading one event as JSON from stdin (a terminal): type or paste it, then ${
    Deno.build.os === "windows" ? "Ctrl-Z and Enter" : "Ctrl-D"
  }; an agent host pipes it in (see mind-hooks dispatch --help)`;

/** Where a run starts: on the fast path (with or without the network), or in the Worker. */
export type RunStart = { thread: "launcher"; net: boolean } | { thread: "worker" };

/**
 * Where this run starts, from the command's declared needs and what is in reach (one pure decision).
 * Only a command that reads its event first (dispatch) may start on the fast path, and only while no
 * plugin or `--hooks-file` is in reach; a trusted project's files are parsed there, its hooks never
 * run there (the run answers {@link SandboxNeeded} first). What the run provably does not need is
 * still revoked from the process: the network, unless an MCP server is configured.
 */
export function runStart(needs: SandboxNeeds, reached: Reach, env: Record<string, string | undefined>): RunStart {
  if (!needs.event || env.MIND_HOOKS_SANDBOX === "always" || reached.workerFirst !== null) return { thread: "worker" };
  return { thread: "launcher", net: reached.mcp };
}

/**
 * Whether what the fast path prepared was read from what `reached` planned the Worker for: the same
 * trusted project (or none), no plugin, and no MCP server or network hook (http, prompt) a plan made
 * without the network would miss. Then the Worker goes on from it under that plan; otherwise (the
 * configuration changed since the decision) what is in reach is decided again and the Worker reads it
 * all itself.
 */
export function preparedAgrees(reached: Reach, prepared: Ready): boolean {
  const c = prepared.catalog;
  if (trustedRoot(prepared) !== reached.pinRoot || reached.workerFirst !== null || c.plugins.length > 0) return false;
  return reached.mcp || networkFree(prepared);
}

/** The trusted project's root of what the fast path read, or null. */
function trustedRoot(prepared: Ready): string | null {
  const p = prepared.catalog.project;
  return p?.trusted ? p.root : null;
}

/** Whether nothing the fast path read reaches the network: no MCP server, no http or prompt hook, no model. */
function networkFree(prepared: Ready): boolean {
  const c = prepared.catalog;
  const servers = c.mcpServers.userSide.size + c.mcpServers.project.size + c.mcpServers.plugins.size;
  return servers === 0 && c.model === null && c.handlers.every((h) => {
    const m = handlerModule(h.handler);
    return m.netReach(h.handler, c.model).length === 0 && m.mcpServer(h.handler) === null;
  });
}

/**
 * What is in reach of a run, read off what its fast path prepared (the warm daemon's, whose catalog
 * is kept fresh by `serve`'s reload rules): the same answer {@link reach} gives from the files, without
 * reading them again; null when it cannot be (a plugin, or the network to plan).
 */
export function reachOfPrepared(prepared: Ready): Reach | null {
  if (prepared.catalog.plugins.length > 0 || !networkFree(prepared)) return null;
  const root = trustedRoot(prepared);
  const sandbox = root === null ? null : projectInReach(root);
  return { sandbox, workerFirst: null, mcp: false, pinRoot: root };
}

async function launch(
  name: string,
  needs: SandboxNeeds,
  args: ParsedArgs,
  run: (io: RunIo) => Promise<number | SandboxNeeded>,
): Promise<number> {
  const env = Deno.env.toObject();
  const processCwd = Deno.cwd();
  let stdin: Uint8Array | null = null;
  let evCwd: string | undefined;
  if (needs.event && !args.options.help) {
    // Typed at a terminal, a dispatch would wait for input without a word: say what it waits for.
    if (Deno.stdin.isTerminal()) console.error(DISPATCH_AT_TERMINAL);
    stdin = readStdinBytesSync();
    evCwd = eventCwd(stdin);
  }
  const input = { command: name, needs, args, env, processCwd, eventCwd: evCwd, pinRoots: [] as string[] };
  const facts = resolveFacts(input);
  const decide = async () => {
    const r = needs.mcp !== undefined || needs.pins !== undefined
      // `review` can trust the project while it runs (p), and then pin its hooks' files (A, t): it
      // reads the project's tree from the start. What it reads is shown to the user, never run.
      ? await reach(facts, args, env, { anyProject: needs.pins === "any-project" })
      : { sandbox: null, workerFirst: null, mcp: false, pinRoot: null };
    input.pinRoots = r.pinRoot !== null ? [r.pinRoot] : [];
    return r;
  };
  const reached = await decide();
  const mcp = reached.mcp;
  const start = runStart(needs, reached, env);
  let prepared: Ready | null = null;
  if (start.thread === "launcher") {
    // The fast path (SECURITY.md): the Worker's start (~20 ms, as much as the runtime's own) is not paid.
    if (!start.net) await Deno.permissions.revoke({ name: "net" });
    const done = await run(processIo(stdin, "refuse"));
    if (typeof done === "number") return done;
    // A stranger's hook matched, or discovery met a plugin or `--hooks-file` the decision did not
    // foresee: nothing ran and nothing was written. The Worker goes on from what the fast path
    // prepared when it agrees with the decision (issue 32: read once); else, the configuration
    // changed meanwhile (a project trusted, a plugin configured), it runs with the grants of what is
    // in reach now and reads it all itself.
    if (done.prepared !== null && preparedAgrees(reached, done.prepared)) prepared = done.prepared;
    else await decide();
  }
  // The Worker runs the command line again, which takes its command from the process arguments: they must be these.
  if (hoistLeadingOptions(Deno.args, engineCliOptions())[0] !== name) {
    throw new Error("the sandbox re-runs main.ts with the process arguments; call main() only from main.ts");
  }
  let plan = await buildPlan(input);
  if (mcp) {
    plan = await buildPlan({ ...input, mcp: await planMcp(plan) });
  }
  let worker: Worker;
  try {
    worker = startWorker(plan);
  } catch (e) {
    throw new Error(
      `cannot start the sandbox (${
        e instanceof Error ? e.message : String(e)
      }); run with deno.json's "unstable": ["worker-options"], or set MIND_HOOKS_SANDBOX=off`,
    );
  }
  const reply = await converse(worker, { mode: "run", plan, stdin, ...(prepared ? { prepared } : {}) });
  if (reply.type === "exit") Deno.exit(reply.code);
  worker.terminate();
  return reply.type === "done" ? reply.code : 2;
}
