/**
 * Runs one CLI command inside the sandbox (SPEC §15): the entry point resolves the plan of this run
 * (src/sandbox/plan.ts), starts `main.ts` again as a Worker whose Deno permissions are exactly the
 * plan (the `worker-options` unstable feature, enabled in deno.json and honoured by `deno compile`),
 * and relays the exit code. Inside the Worker the same `main()` runs the command for real.
 *
 * Why main.ts is the Worker's module: it is the root of every build, so a compiled binary always
 * holds it (a separate worker file would need `deno compile --include`).
 *
 * `dispatch` reads its event from stdin before the Worker starts, because the event's `cwd` decides
 * which `.mind/` chain the project search may read; the bytes are handed to the Worker, which sees
 * them as its stdin.
 *
 * `MIND_HOOKS_SANDBOX=off` runs commands without the Worker (measurement and diagnosis only;
 * `doctor` says so loudly).
 * @module
 */
import { buildPlan, type PlanFacts, resolveFacts, type SandboxPlan, workerPermissions } from "./plan.ts";
import { absolute, join } from "../util/paths.ts";
import { readStdinBytes } from "../util/stdio.ts";

/** The Worker name prefix that marks code running inside the sandbox. */
export const SANDBOX_WORKER_NAME = "mind-hooks-sandbox";

/** Messages from the launcher to the Worker. */
type InitMessage = { mode: "run" | "plan-mcp"; plan: SandboxPlan; stdin: Uint8Array | null };
/** Messages from the Worker to the launcher. */
type ReplyMessage =
  | { type: "done"; code: number }
  | { type: "exit"; code: number }
  | { type: "mcp"; hosts: string[]; programs: string[] };

let currentPlan: SandboxPlan | null = null;

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
 * Runs `run` (the command `name` with `args`) in the sandbox: in the launcher, starts the Worker and
 * returns its exit code; inside the Worker, runs the command. Throws only what `run` throws inside.
 */
export async function runInSandbox(name: string, args: string[], run: () => Promise<number>): Promise<number> {
  if (insideSandbox()) return await runInside(run);
  if (sandboxDisabled()) return await run();
  return await launch(name, args, run);
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

/** A stand-in for `Deno.stdin` that replays the bytes the launcher already read. */
function replayStdin(bytes: Uint8Array): void {
  let offset = 0;
  const stdin = {
    rid: -1,
    get readable(): ReadableStream<Uint8Array> {
      return new ReadableStream<Uint8Array>({
        pull(c) {
          if (offset >= bytes.length) return c.close();
          const chunk = bytes.subarray(offset, Math.min(bytes.length, offset + 65536));
          offset += chunk.length;
          c.enqueue(chunk);
        },
      });
    },
    read(buf: Uint8Array): Promise<number | null> {
      if (offset >= bytes.length) return Promise.resolve(null);
      const n = Math.min(buf.length, bytes.length - offset);
      buf.set(bytes.subarray(offset, offset + n));
      offset += n;
      return Promise.resolve(n);
    },
    isTerminal: () => false,
    setRaw: () => {},
    close: () => {},
  };
  Object.defineProperty(Deno, "stdin", { value: stdin, configurable: true, writable: true });
}

async function runInside(run: () => Promise<number>): Promise<number> {
  const init = await receiveInit();
  currentPlan = init.plan;
  if (init.mode === "plan-mcp") {
    const found = await (await import("./mcp_plan.ts")).mcpNeeds(init.plan);
    post({ type: "mcp", ...found });
    return 0;
  }
  if (init.stdin) replayStdin(init.stdin);
  // `Deno.exit` in a Worker would end only the Worker and lose the code: hand it to the launcher,
  // which exits the process, and block this thread until it does.
  const exit = (code?: number): never => {
    post({ type: "exit", code: code ?? 0 });
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
    throw new Error("unreachable");
  };
  Object.defineProperty(Deno, "exit", { value: exit, configurable: true, writable: true });
  try {
    const code = await run();
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

/** Commands whose plan may include MCP servers (net for HTTP ones; run for stdio ones in serve). */
const MCP_COMMANDS = new Set(["dispatch", "doctor", "serve"]);

/**
 * Whether any file that may define `[mcp_servers]` mentions them. A plain text search, not a parse:
 * the launcher must not parse what strangers wrote. A miss (e.g. a key spelled with escapes) only
 * leaves net closed, so the MCP call fails with a clear error; it never widens anything.
 */
async function mentionsMcp(plan: { facts: PlanFacts }, args: readonly string[]): Promise<boolean> {
  if (args.some((a) => a.includes("mcp_servers"))) return true;
  const { home, searchFrom } = plan.facts;
  const files = [join(home, "config.toml"), join(home, "hooks.json")];
  try {
    for await (const e of Deno.readDir(join(home, "profiles"))) {
      files.push(join(home, "profiles", e.name, "config.toml"), join(home, "profiles", e.name, "hooks.json"));
    }
  } catch { /* no profiles */ }
  // A plugin declares its own servers in its manifest (`mcpServers`) or its `.mcp.json` (SPEC §2.6).
  try {
    for await (const e of Deno.readDir(join(home, "plugins"))) {
      const root = join(home, "plugins", e.name);
      files.push(
        join(root, ".mcp.json"),
        ...["mind", "codex", "claude"].map((m) => join(root, `.${m}-plugin`, "plugin.json")),
      );
    }
  } catch { /* no plugins */ }
  for (let dir = searchFrom, i = 0; i < 4096; i++) {
    const mind = join(dir, ".mind");
    if (mind !== home) files.push(join(mind, "config.toml"), join(mind, "hooks.json"));
    const parent = dir.replace(/[\\/][^\\/]*$/, "") || "/";
    if (parent === dir || dir === "/") break;
    dir = parent;
  }
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--hooks-file" && args[i + 1]) files.push(absolute(args[i + 1], Deno.cwd()));
    else if (args[i].startsWith("--hooks-file=")) files.push(absolute(args[i].slice(13), Deno.cwd()));
  }
  for (const f of files) {
    try {
      const info = await Deno.stat(f);
      if (!info.isFile || info.size > 16 * 1024 * 1024) continue;
      if (/mcp_servers|mcpServers/.test(await Deno.readTextFile(f))) return true;
    } catch { /* missing or unreadable: nothing to grant */ }
  }
  return false;
}

function startWorker(plan: SandboxPlan): Worker {
  return new Worker(new URL("../../main.ts", import.meta.url), {
    type: "module",
    name: `${SANDBOX_WORKER_NAME}:${plan.command}`,
    deno: {
      permissions: {
        ...workerPermissions(plan),
        read: plan.read === true ? true : [...(plan.read || []), "/work/main"],
      },
    },
  });
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
async function planMcp(plan: SandboxPlan): Promise<{ hosts: string[]; programs: string[] }> {
  const readOnly: SandboxPlan = { ...plan, write: false, run: false, net: false };
  const worker = startWorker(readOnly);
  try {
    const reply = await converse(worker, { mode: "plan-mcp", plan: readOnly, stdin: null });
    return reply.type === "mcp" ? { hosts: reply.hosts, programs: reply.programs } : { hosts: [], programs: [] };
  } finally {
    worker.terminate();
  }
}

/**
 * Whether a dispatch may skip the Worker: nothing it will parse was written by a stranger. A project's
 * `.mind/` files are parsed only when the project is trusted, which needs `[projects."<root>"]` in the
 * user's config.toml (or a `-c` value); plugins and `--hooks-file` files are parsed whenever present.
 * So the fast path is taken when no plugin is installed, no `--hooks-file` is given, and no `.mind`
 * in reach of the project search has its folder named in the user's config.toml or the command line.
 * The text test errs towards the sandbox: a name it cannot rule out (or a config it cannot read)
 * sends the run to the Worker. Returns the reason to sandbox, or null for the fast path.
 */
export async function sandboxReason(plan: { facts: PlanFacts }, args: readonly string[]): Promise<string | null> {
  if (args.some((a) => a === "--hooks-file" || a.startsWith("--hooks-file="))) return "--hooks-file is given";
  try {
    for await (const _ of Deno.readDir(join(plan.facts.home, "plugins"))) return "plugins are installed";
  } catch { /* no plugins folder */ }
  const realHome = await Deno.realPath(plan.facts.home).catch(() => plan.facts.home);
  // The engine searches from the real path of the start; the start as given may have other
  // ancestors (a symlinked folder), so both chains are looked at.
  const start = plan.facts.searchFrom;
  const realStart = await Deno.realPath(start).catch(() => start);
  const roots: string[] = [];
  for (const from of new Set([start, realStart])) {
    for (let dir = from, i = 0; i < 4096; i++) {
      const mind = join(dir, ".mind");
      if (mind !== plan.facts.home && mind !== realHome) {
        try {
          await Deno.lstat(mind);
          roots.push(dir, await Deno.realPath(dir).catch(() => dir));
        } catch { /* not here */ }
      }
      const parent = dir.replace(/[\\/][^\\/]*$/, "") || "/";
      if (parent === dir || dir === "/") break;
      dir = parent;
    }
  }
  if (roots.length === 0) return null;
  let text = args.join("\n");
  try {
    const config = join(plan.facts.home, "config.toml");
    const info = await Deno.stat(config);
    if (info.size > 16 * 1024 * 1024) return "the user config.toml is too large to rule out a trusted project";
    text += "\n" + await Deno.readTextFile(config);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) {
      return "the user config.toml cannot be read to rule out a trusted project";
    }
  }
  for (const root of new Set(roots)) {
    if (text.includes(root) || text.includes(JSON.stringify(root).slice(1, -1))) {
      return `a trusted project layer may be in reach (${join(root, ".mind")})`;
    }
  }
  return null;
}

async function launch(name: string, args: string[], run: () => Promise<number>): Promise<number> {
  const env = Deno.env.toObject();
  const processCwd = Deno.cwd();
  let stdin: Uint8Array | null = null;
  let evCwd: string | undefined;
  if (name === "dispatch" && !args.includes("--help") && !args.includes("-h")) {
    stdin = await readStdinBytes();
    evCwd = eventCwd(stdin);
  }
  const input = { command: name, args, env, processCwd, eventCwd: evCwd };
  const facts = { facts: resolveFacts(input) };
  const mcp = MCP_COMMANDS.has(name) && await mentionsMcp(facts, args);
  if (name === "dispatch" && env.MIND_HOOKS_SANDBOX !== "always" && await sandboxReason(facts, args) === null) {
    // The fast path (SECURITY.md): only the user's and the administrator's files are parsed, so the
    // Worker's start (~20 ms, as much as the runtime's own) is not paid. What the run provably does
    // not need is still revoked from the process: the network, unless an MCP server is configured.
    if (!mcp) await Deno.permissions.revoke({ name: "net" });
    if (stdin) replayStdin(stdin);
    return await run();
  }
  // The Worker runs main.ts, which takes its command from the process arguments: they must be these.
  if (Deno.args.length !== args.length + 1 || Deno.args[0] !== name || args.some((a, i) => Deno.args[i + 1] !== a)) {
    throw new Error("the sandbox re-runs main.ts with the process arguments; call main() only from main.ts");
  }
  let plan = await buildPlan(input);
  if (mcp) {
    const needs = await planMcp(plan);
    if (name !== "serve") needs.programs = [];
    plan = await buildPlan({ ...input, mcp: needs });
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
  const reply = await converse(worker, { mode: "run", plan, stdin });
  if (reply.type === "exit") Deno.exit(reply.code);
  worker.terminate();
  return reply.type === "done" ? reply.code : 2;
}
