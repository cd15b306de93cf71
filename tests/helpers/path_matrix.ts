/**
 * The path matrix (SPEC §15 r3, "one behaviour on every path"): one case — its configuration, its
 * events, what they give and the files they leave — run through every way a dispatch reaches the
 * engine, each in a fresh home:
 *
 * - `fast`: the CLI `dispatch`, hooks in the user layer (the fast path, no Worker);
 * - `sandbox`: the CLI `dispatch`, the same hooks in a trusted project's `.mind/` (the narrowed Worker);
 * - `serve`: one long-lived `serve`, the hooks in the user layer;
 * - `mod`: a program embedding `mod.ts` (tests/helpers/mod_host.ts), one run per step;
 * - `daemon`: the CLI `dispatch` answered by the home's warm daemon (SPEC §13 r4), hooks in the user
 *   layer; every dispatch step must have been answered by it (its `daemon status` counts them);
 * - `claude`, `codex`, `gemini`, `copilot`: `dispatch --protocol <host>` with the host's own input
 *   (its captured fixtures, fixtures/adapter/<host>/), the hooks in the user layer;
 * - `claude-daemon`: `dispatch --protocol claude` answered by the daemon, like `daemon`;
 * - `sandbox-daemon`: the CLI `dispatch` answered by the daemon, the hooks in a trusted project's
 *   `.mind/` (strangers' hooks: its warm sandbox Worker), like `sandbox` and `daemon` at once.
 *
 * Results are compared whole after normalising only what must differ between two runs: the folders
 * of each run (`<home>`, `<temp>`, `<cwd>`, the layer's `<hooks.json>`, so a key's layer and path),
 * durations, times, dates and the random names of spilled files. An adapter's answer is compared with
 * the reference result mapped through that host's own output mapping (src/adapter/): what the host
 * protocol can carry must be what the engine decided on every other path.
 * @module
 */
import { join } from "node:path";
import { makeHome, makeProject, REPO, runCli, type TempDir, testEnv } from "./cli.ts";
import { ServeClient } from "./serve_client.ts";
import { loadCatalog } from "../../src/config/discovery.ts";
import { applyTrustPlan, planTrust } from "../../src/trust/actions.ts";
import { writeProjectTrust } from "../../src/state/state_writer.ts";
import { ADAPTERS, hostEventName, mapResultToHost } from "../../src/adapter/hosts.ts";
import type { EventName } from "../../src/events/names.ts";
import type { HookHandler } from "../../src/config/discovery.ts";
import type { DispatchResult } from "../../src/schema/result.ts";

/** The hosts whose `--protocol` the matrix drives. */
export const HOSTS = ["claude", "codex", "gemini", "copilot"] as const;
/** One host. */
export type MatrixHost = typeof HOSTS[number];
/** Every path of the matrix. */
export const PATHS = [
  "fast",
  "sandbox",
  "serve",
  "mod",
  "daemon",
  ...HOSTS,
  "claude-daemon",
  "sandbox-daemon",
] as const;
/** One path. */
export type PathName = typeof PATHS[number];

/** The host whose `--protocol` a path speaks (`claude-daemon`: Claude Code's, answered by the daemon), or null. */
export function hostOf(path: PathName): MatrixHost | null {
  if (HOSTS.includes(path as MatrixHost)) return path as MatrixHost;
  return path === "claude-daemon" ? "claude" : null;
}

/** Whether the home's warm daemon answers a path's dispatches. */
function viaDaemon(path: PathName): boolean {
  return path === "daemon" || path === "claude-daemon" || path === "sandbox-daemon";
}

type Json = Record<string, unknown>;

/** One step of a case: a dispatch of `event` (with `fields` over the event's usual ones), or a transcript append. */
export type Step =
  | { dispatch: EventName; fields?: Json; before?: (run: PathRun) => Promise<void> }
  | { transcript: { event: string; turnId?: string; actor?: string; payload: Json } };

/** One case of the matrix. */
export type Case = {
  name: string;
  /** hooks.json's `hooks`; `{files}` in a command is the folder of {@link Case.files}. */
  hooks: Record<string, Json[]>;
  /**
   * Files the hooks run, written first (name → text, `{files}` replaced as in commands): beside a
   * project's hooks.json, or for the user layer in a folder of their own.
   */
  files?: Record<string, string>;
  /** User config.toml text written before trust (MCP servers, `[hooks]` settings). */
  userConfig?: string;
  /** Something the case needs running meanwhile (an MCP server): started first, its config added, closed last. */
  resource?: () => Promise<{ userConfig: string; close(): Promise<void>; vars?: Record<string, string> }>;
  /** Hooks left untrusted (the others are trusted before the first step). */
  untrusted?: (h: HookHandler) => boolean;
  /**
   * Another host's hook files in the project (SPEC §2.8 r4), by path from the project root: the JSON
   * written there (`{files}` replaced as in commands). Needs `placement: "project"`.
   */
  hostFiles?: Record<string, Json>;
  /** `project`: every path uses a trusted project's layer (no fast path exists for it). Default `user`. */
  placement?: "user" | "project";
  steps: Step[];
  /** What the reference run must show (the case does what it is about, not the same failure everywhere). */
  check: (reference: Outcome) => void;
  /** Paths this case does not run on, each with the reason (a documented exception, SPEC §15). */
  except?: Partial<Record<PathName, string>>;
};

/** One path's run of a case: its folders, and the serve client while serving. */
export type PathRun = {
  path: PathName;
  home: string;
  temp: string;
  cwd: string;
  /** The folder of the hooks.json: the home, or the project's `.mind`. */
  layerDir: string;
  /** The folder of the case's files. */
  filesDir: string;
  sessionId: string;
  serve: ServeClient | null;
};

/** What one path gave: each step's answer (normalised) and the files the steps left (normalised). */
export type Outcome = { steps: unknown[]; files: string[] };

// ---------------------------------------------------------------------------------------------
// Normalising

/** The text of `value` with what differs between runs replaced by placeholders. */
function normalText(text: string, run: PathRun): string {
  const hooks = join(run.layerDir, "hooks.json");
  return text
    .replaceAll(`user:${hooks}`, "<hooks.json>")
    .replaceAll(`project:${hooks}`, "<hooks.json>")
    .replaceAll(hooks, "<hooks.json>")
    .replaceAll(run.filesDir, "<files>")
    .replaceAll(run.temp, "<temp>")
    .replaceAll(run.home, "<home>")
    .replaceAll(run.cwd, "<cwd>")
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<uuid>")
    .replace(/sessions\/\d{4}\/\d{2}\/\d{2}\//g, "sessions/<date>/")
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/g, "<time>");
}

/** `value` with every string normalised, durations dropped and a run's layer named `<layer>`. */
export function normal(value: unknown, run: PathRun): unknown {
  if (typeof value === "string") return normalText(value, run);
  if (Array.isArray(value)) return value.map((v) => normal(v, run));
  if (value !== null && typeof value === "object") {
    const out: Json = {};
    for (const [k, v] of Object.entries(value)) {
      if (k === "duration_ms" || k === "durationMs") out[k] = null;
      else if (k === "layer" && typeof v === "string") out[k] = "<layer>";
      else out[k] = normal(v, run);
    }
    return out;
  }
  return value;
}

// ---------------------------------------------------------------------------------------------
// Files written

/** What the steps may leave in the home; setup files, the trusted-copy store and caches are not behaviour. */
function snapshotted(rel: string, path: PathName): boolean {
  if (["hooks.json", "config.toml", "config.toml.lock"].includes(rel) || rel.startsWith("hooks/")) return false;
  // Async jobs run in-process in serve (nothing on disk) and in a detached runner elsewhere: their
  // bookkeeping is not compared, their results are (asyncResults).
  if (rel.startsWith("tmp/async/")) return false;
  // A host sends its own transcript_path; the engine's transcript file is made only for an event without one.
  if (hostOf(path) !== null && /^sessions\/[^/]+\/[^/]+\/[^/]+\/session-/.test(rel)) return false;
  return true;
}

/** The observation log's run lines, normalised and sorted (writers of several processes interleave). */
function logLines(text: string, run: PathRun): string[] {
  return text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l)).filter((r) => r.kind === "run")
    // Discovery warnings are logged once per load by serve (src/serve/log_queue.ts), once per event elsewhere.
    .map((r) => JSON.stringify(normal({ ...r, timestamp: null }, run))).sort();
}

async function walk(dir: string, rel = ""): Promise<[string, string][]> {
  const out: [string, string][] = [];
  let entries: Deno.DirEntry[];
  try {
    entries = await Array.fromAsync(Deno.readDir(dir));
  } catch {
    return out;
  }
  for (const e of entries) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory) out.push(...await walk(join(dir, e.name), r));
    else if (e.isFile) out.push([r, await Deno.readTextFile(join(dir, e.name))]);
  }
  return out;
}

/**
 * A recording (SPEC §16) as what must be the same on every path: per line, the event, the decision then and which
 * keys were masked. The event itself is recorded as the engine received it, which is the host's own form mapped
 * (tool names, placeholders) in adapter mode: not compared.
 */
function recordingText(text: string): string {
  const masked = (v: unknown, at: string): string[] =>
    v && typeof v === "object"
      ? Object.entries(v).flatMap(([k, x]) => x === "<masked>" ? [`${at}${k}`] : masked(x, `${at}${k}.`))
      : [];
  return text.split("\n").filter((l) => l !== "").map((l) => {
    const r = JSON.parse(l);
    return JSON.stringify({
      event: r.event.hook_event_name,
      decision: r.decision,
      reason: r.reason,
      masked: masked(r.event, ""),
    });
  }).join("\n");
}

/** The files under the run's home and temp folder that the steps wrote, normalised. */
async function filesOf(run: PathRun, opts: { log: boolean; rest: boolean }): Promise<string[]> {
  const out: string[] = [];
  for (const [root, name] of [[run.home, "<home>"], [run.temp, "<temp>"]] as const) {
    for (const [rel, text] of await walk(root)) {
      if (root === run.home && !snapshotted(rel, run.path)) continue;
      if (root === run.home && rel === "logs/hooks.jsonl") {
        if (opts.log) out.push(...logLines(text, run).map((l) => `${name}/${rel}: ${l}`));
      } else if (opts.rest) {
        const shown = root === run.home && rel.startsWith("recordings/") ? recordingText(text) : text;
        out.push(`${name}/${normalText(rel, run)}: ${normalText(shown, run)}`);
      }
    }
  }
  return out.sort();
}

// ---------------------------------------------------------------------------------------------
// Setting up a run

/** The event of a step as the engine's own front ends get it (SPEC §5). */
export function mindEvent(event: EventName, run: PathRun, fields: Json = {}): Json {
  const common = {
    session_id: run.sessionId,
    transcript_path: null,
    cwd: run.cwd,
    hook_event_name: event,
    model: "gpt-test",
  };
  const turn = { turn_id: "turn-1", permission_mode: "default" };
  const tool = { ...turn, tool_name: "exec_command", tool_input: { cmd: "ls" }, tool_use_id: "call-1" };
  const extra: Partial<Record<EventName, Json>> = {
    SessionStart: { permission_mode: "default", source: "startup" },
    SessionEnd: { reason: "other" },
    UserPromptSubmit: { ...turn, prompt: "hello" },
    PreToolUse: tool,
    PostToolUse: { ...tool, tool_response: { exit_code: 0, output: "ok" } },
    PostToolUseFailure: { ...tool, error: "Exit code 2" },
    Notification: { message: "needs your permission", notification_type: "permission_prompt" },
    Stop: { ...turn, stop_hook_active: false, last_assistant_message: "done" },
  };
  const out: Json = { ...common, ...extra[event], ...fields };
  if (event === "SessionEnd") delete out.model;
  return out;
}

/** The host's own input for a step: its captured fixture with this run's session, folder and `fields`. */
export function hostInput(host: MatrixHost, event: EventName, run: PathRun, fields: Json = {}): Json {
  const name = hostEventName(host, event);
  if (!name) throw new Error(`${host} has no ${event}`);
  const read = (h: string) => JSON.parse(Deno.readTextFileSync(join(REPO, "fixtures", "adapter", h, `${name}.json`)));
  let raw: Json;
  try {
    raw = read(host);
  } catch {
    raw = { ...read("claude"), ...(host === "codex" ? { turn_id: "turn-1", model: "gpt-test" } : {}) };
  }
  const { prompt } = fields;
  return { ...raw, session_id: run.sessionId, cwd: run.cwd, ...(prompt !== undefined ? { prompt } : {}) };
}

function substitute(text: string, filesDir: string): string {
  return text.replaceAll("{files}", filesDir);
}

/** A fresh home (and project) for `path`, with the case's hooks in place and trusted. */
async function setUp(c: Case, path: PathName): Promise<{ run: PathRun; dirs: TempDir[] }> {
  const home = await makeHome();
  const tempDir = await makeHome();
  const dirs = [home, tempDir];
  const inProject = path === "sandbox" || path === "sandbox-daemon" || c.placement === "project";
  let cwd: string;
  let layerDir: string;
  let filesDir: string;
  if (inProject) {
    const project = await makeProject();
    dirs.push(project);
    cwd = project.path;
    layerDir = filesDir = project.mindDir;
  } else {
    const work = await makeHome();
    const files = await makeHome();
    dirs.push(work, files);
    cwd = work.path;
    layerDir = home.path;
    filesDir = files.path;
  }
  const run: PathRun = {
    path,
    home: home.path,
    temp: tempDir.path,
    cwd,
    layerDir,
    filesDir,
    sessionId: `matrix-${c.name.replace(/\W+/g, "-")}`,
    serve: null,
  };
  for (const [name, text] of Object.entries(c.files ?? {})) {
    await Deno.writeTextFile(join(filesDir, name), substitute(text, filesDir));
  }
  await Deno.writeTextFile(join(layerDir, "hooks.json"), substitute(JSON.stringify({ hooks: c.hooks }), filesDir));
  for (const [rel, content] of Object.entries(c.hostFiles ?? {})) {
    const path = join(cwd, rel);
    await Deno.mkdir(join(path, ".."), { recursive: true });
    await Deno.writeTextFile(path, substitute(JSON.stringify(content), filesDir));
  }
  const configPath = join(home.path, "config.toml");
  if (c.userConfig) await Deno.writeTextFile(configPath, c.userConfig);
  if (inProject) {
    const r = await writeProjectTrust(configPath, cwd, "trusted");
    if (!r.ok) throw new Error(r.error.message);
  }
  const loaded = await loadCatalog({ home: home.path, cwd, requirements: "/nonexistent/mind-hooks-tests/req.toml" });
  if (!loaded.ok) throw new Error(loaded.error);
  const catalog = loaded.value;
  const plan = await planTrust(catalog.handlers.filter((h) => !c.untrusted?.(h)));
  if (plan.refused.length > 0) throw new Error(`not trusted: ${JSON.stringify(plan.refused)}`);
  const applied = await applyTrustPlan(catalog, plan);
  if (!applied.ok) throw new Error(JSON.stringify(applied));
  return { run, dirs };
}

// ---------------------------------------------------------------------------------------------
// Running one path

/** Runs a library request through tests/helpers/mod_host.ts. */
async function modHost(request: Json): Promise<unknown> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--config", join(REPO, "deno.json"), join(REPO, "tests", "helpers", "mod_host.ts")],
    env: testEnv(),
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(60_000),
  }).spawn();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(JSON.stringify(request)));
  await w.close();
  const out = await child.output();
  if (!out.success) throw new Error(`mod host exited ${out.code}: ${new TextDecoder().decode(out.stderr)}`);
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

/** One step's answer on one path (raw: a §9 result, a host's stdout object or null, a transcript answer). */
async function runStep(step: Step, run: PathRun): Promise<unknown> {
  const env = { MIND_TEMP_DIR: run.temp };
  if ("transcript" in step) {
    const t = step.transcript;
    // Each front end's answer as `{path}` or `{error}` (their own wire forms differ by design).
    if (run.serve) {
      const params = {
        session_id: run.sessionId,
        event: t.event,
        turn_id: t.turnId,
        actor: t.actor,
        payload: t.payload,
      };
      const m = await run.serve.request("transcript/append", params);
      return m.error ? { error: m.error.message } : { path: m.result.path };
    }
    if (run.path === "mod") {
      const r = await modHost({
        op: "transcript",
        home: run.home,
        entry: { sessionId: run.sessionId, event: t.event, turnId: t.turnId, actor: t.actor, payload: t.payload },
      }) as { ok: boolean; path?: string; error?: { message: string } };
      return r.ok ? { path: r.path } : { error: r.error?.message };
    }
    const args = ["transcript", "append", "--home", run.home, "--session", run.sessionId, "--event", t.event];
    if (t.turnId) args.push("--turn", t.turnId);
    if (t.actor) args.push("--actor", t.actor);
    const r = await runCli(args, { stdin: JSON.stringify(t.payload), env });
    return r.code === 0 ? { path: r.stdout.trim() } : { error: r.stderr.trim().replace(/^mind-hooks: /, "") };
  }
  await step.before?.(run);
  const event = step.dispatch;
  const host = hostOf(run.path);
  if (host !== null) {
    const input = hostInput(host, event, run, step.fields);
    const daemon = viaDaemon(run.path) ? { MIND_HOOKS_DAEMON: undefined } : {};
    const r = await runCli(["dispatch", "--protocol", host, "--home", run.home], {
      stdin: JSON.stringify(input),
      env: { ...env, ...daemon },
      cwd: run.cwd,
    });
    const answer = r.stdout.trim() === "" ? null : JSON.parse(r.stdout);
    // Copilot CLI shows a session start's messages only from a hook that exits 2 (its stdout still read).
    if (r.code === 2 && ADAPTERS[host].warningExit !== undefined) {
      return { answer, warning: r.stderr.replace(/\n$/, "") };
    }
    if (r.code !== 0 || r.stderr !== "") return { code: r.code, stderr: r.stderr };
    return answer;
  }
  const ev = mindEvent(event, run, step.fields);
  if (run.serve) {
    const m = await run.serve.request("dispatch", ev);
    return m.result ?? m.error;
  }
  if (run.path === "mod") {
    return await modHost({
      op: "dispatch",
      event: ev,
      options: { home: run.home, tempDir: run.temp, requirements: "/nonexistent/mind-hooks-tests/req.toml" },
    });
  }
  const daemon = viaDaemon(run.path) ? { MIND_HOOKS_DAEMON: undefined } : {};
  const r = await runCli(["dispatch", "--home", run.home], { stdin: JSON.stringify(ev), env: { ...env, ...daemon } });
  if (r.code !== 0) return { code: r.code, stderr: r.stderr };
  return JSON.parse(r.stdout);
}

/** `daemon ACTION --json` of the run's home (the daemon is not switched off for it). */
async function daemonCli(run: PathRun, action: "start" | "stop" | "status"): Promise<Json> {
  const r = await runCli(["daemon", action, "--home", run.home, ...(action === "stop" ? [] : ["--json"])], {
    env: { MIND_HOOKS_DAEMON: undefined },
  });
  if (action === "stop") return {};
  if (r.code !== 0) throw new Error(`daemon ${action} exited ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** Runs every step of `c` on `path`; the raw answers (for mapping) and the outcome (normalised). */
export async function runPath(c: Case, path: PathName): Promise<{ raw: unknown[]; outcome: Outcome; run: PathRun }> {
  const { run, dirs } = await setUp(c, path);
  try {
    if (path === "serve") {
      run.serve = await ServeClient.start(["--home", run.home, "--temp-dir", run.temp], { killAfterMs: 120_000 });
    }
    if (viaDaemon(path)) await daemonCli(run, "start");
    const raw: unknown[] = [];
    for (const step of c.steps) raw.push(await runStep(step, run));
    if (viaDaemon(path)) {
      const served = (await daemonCli(run, "status")).events;
      await daemonCli(run, "stop");
      const dispatched = c.steps.filter((s) => "dispatch" in s).length;
      if (served !== dispatched) throw new Error(`the daemon answered ${served} of ${dispatched} events`);
      // Its folder: the daemon's own, not the case's.
      await Deno.remove(join(run.home, "run"), { recursive: true }).catch(() => {});
    }
    let files: string[];
    if (run.serve) {
      // Shutdown ends the sessions (their spills, guards, async hooks): the files are taken before
      // it, the log (written off the response path) after it.
      const rest = await filesOf(run, { log: false, rest: true });
      const closed = await run.serve.close();
      if (closed.code !== 0) throw new Error(`serve exited ${closed.code}: ${closed.stderr}`);
      files = [...rest, ...await filesOf(run, { log: true, rest: false })].sort();
    } else files = await filesOf(run, { log: true, rest: true });
    return { raw, outcome: { steps: raw.map((r) => normal(r, run)), files }, run };
  } finally {
    await run.serve?.close().catch(() => {});
    for (const d of dirs) await d.cleanup();
  }
}

/** The files a path should have written, from the reference's: an adapter's run leaves no engine transcript. */
export function expectedFiles(reference: Outcome, path: PathName): string[] {
  if (hostOf(path) === null) return reference.files;
  return reference.files.filter((f) => !/^<home>\/sessions\/<date>\/session-/.test(f));
}

/**
 * What `host` should answer for each step, given the reference path's normalised answers: each §9
 * result mapped through the host's own output mapping, with the host's (normalised) input.
 */
export function expectedHostSteps(c: Case, host: MatrixHost, reference: Outcome, run: PathRun): unknown[] {
  return c.steps.map((step, i) => {
    if (!("dispatch" in step)) return reference.steps[i];
    const input = normal(hostInput(host, step.dispatch, run, step.fields), run) as Json;
    const result = reference.steps[i] as DispatchResult;
    const answer = mapResultToHost(host, step.dispatch, result, input);
    const warning = ADAPTERS[host].warningExit?.(step.dispatch, result) ?? null;
    return warning === null ? answer : { answer, warning };
  });
}

/** Where `actual` first differs from `expected`, as `at <path>: expected … got …` (cut), or null. */
export function difference(actual: unknown, expected: unknown, at = ""): string | null {
  if (JSON.stringify(actual) === JSON.stringify(expected)) return null;
  const cut = (v: unknown) => {
    const t = JSON.stringify(v) ?? String(v);
    return t.length > 400 ? `${t.slice(0, 400)}…` : t;
  };
  if (actual !== null && expected !== null && typeof actual === "object" && typeof expected === "object") {
    const keys = new Set([...Object.keys(actual), ...Object.keys(expected)]);
    for (const k of keys) {
      const d = difference(
        (actual as Json)[k],
        (expected as Json)[k],
        `${at}${Array.isArray(actual) ? `[${k}]` : `.${k}`}`,
      );
      if (d !== null) return d;
    }
  }
  return `at ${at || "(root)"}: expected ${cut(expected)}, got ${cut(actual)}`;
}
