/**
 * One case through every front end of the engine (GUIDE: "a feature is tested on every path it runs on"):
 * the CLI's `dispatch` (the fast path, or the sandbox Worker when a stranger's file is in reach), `serve`
 * (one JSON-RPC `dispatch`), `mod.ts` (in this process), and `dispatch --protocol <host>` for each host,
 * from the host's own stdin. Each returns what that front end answered, so a test compares them whole.
 * @module
 */
import { join } from "node:path";
import { type CliResult, denoDir, dispatch, type DispatchResult, type Json, REPO, runCli } from "./cli.ts";

/** The hosts of `dispatch --protocol`. */
export const PROTOCOL_HOSTS = ["claude", "codex", "gemini", "copilot"] as const;
/** One host of `dispatch --protocol`. */
export type ProtocolHost = typeof PROTOCOL_HOSTS[number];

/** The environment the CLI children get in these tests (as tests/helpers/cli.ts cleans it). */
function childEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(Deno.env.toObject())) if (!k.startsWith("MIND_")) env[k] = v;
  return {
    ...env,
    DENO_DIR: denoDir(),
    SHELL: "/bin/sh",
    MIND_REQUIREMENTS: "/nonexistent/mind-hooks-tests/requirements.toml",
    MIND_TEMP_DIR: join(home, "tmp-spill"),
    ...extra,
  };
}

/** `mind-hooks dispatch` of `input` (mind's §5 form) through the CLI. */
export function viaCli(home: string, input: Json, env: Record<string, string> = {}): Promise<DispatchResult> {
  return dispatch(home, input, [], { env });
}

/** The same `input` as one `dispatch` request of `mind-hooks serve --home HOME` (then its stdin closes). */
export async function viaServe(home: string, input: Json, env: Record<string, string> = {}): Promise<DispatchResult> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-q", "-P", "--no-prompt", "--config", join(REPO, "deno.json"), join(REPO, "main.ts")]
      .concat(["serve", "--home", home]),
    env: childEnv(home, env),
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(60_000),
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(
    new TextEncoder().encode(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "dispatch", params: input }) + "\n"),
  );
  await writer.close();
  const out = await child.output();
  const lines = new TextDecoder().decode(out.stdout).split("\n").filter((l) => l.trim() !== "");
  const reply = lines.map((l) => JSON.parse(l)).find((m) => m.id === 1);
  if (!reply?.result) {
    throw new Error(`serve gave no result: ${lines.join("\n")}\n${new TextDecoder().decode(out.stderr)}`);
  }
  return reply.result as DispatchResult;
}

/** The same `input` through the library (`mod.ts`'s `dispatch`), in this process. */
export async function viaMod(home: string, input: Json, env: Record<string, string> = {}): Promise<DispatchResult> {
  const { dispatch: libDispatch } = await import("../../mod.ts");
  return await libDispatch(input, {
    home,
    env: { ...childEnv(home), ...env },
    requirements: "/nonexistent/mind-hooks-tests/requirements.toml",
    tempDir: join(home, "tmp-spill"),
  }) as unknown as DispatchResult;
}

/** `dispatch --protocol <host>` of the host's own stdin object: the host's stdout (null when empty). */
export async function viaProtocol(
  host: ProtocolHost,
  home: string,
  hostInput: Json,
  opts: { env?: Record<string, string>; cwd?: string } = {},
): Promise<{ stdout: Json | null; cli: CliResult }> {
  const cli = await runCli(["dispatch", "--protocol", host, "--home", home], {
    stdin: JSON.stringify(hostInput),
    env: { MIND_TEMP_DIR: join(home, "tmp-spill"), ...opts.env },
    cwd: opts.cwd,
  });
  // Copilot CLI's sessionStart warning is an exit 2 with the text on stderr (src/adapter/copilot.ts).
  const warned = host === "copilot" && cli.code === 2 && hostInput.hook_event_name === "SessionStart";
  if (cli.code !== 0 && !warned) throw new Error(`dispatch --protocol ${host} exited ${cli.code}: ${cli.stderr}`);
  const text = cli.stdout.trim();
  return { stdout: text === "" ? null : JSON.parse(text), cli };
}

/** A Bash tool call as each host sends it on stdin (its own event name, tool name and fields). */
export function hostToolCall(host: ProtocolHost, command: string, cwd: string, sessionId: string): Json {
  const common = { session_id: sessionId, cwd, transcript_path: null };
  switch (host) {
    case "claude":
    case "codex":
      return {
        ...common,
        hook_event_name: "PreToolUse",
        permission_mode: "default",
        tool_name: "Bash",
        tool_input: { command },
        tool_use_id: "call-1",
      };
    case "gemini":
      return { ...common, hook_event_name: "BeforeTool", tool_name: "run_shell_command", tool_input: { command } };
    case "copilot":
      return { ...common, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command } };
  }
}

/** A session start as each host sends it on stdin. */
export function hostSessionStart(host: ProtocolHost, cwd: string, sessionId: string): Json {
  const common = { session_id: sessionId, cwd, transcript_path: null, hook_event_name: "SessionStart" };
  return host === "gemini" || host === "copilot" ? { ...common, source: "startup" } : {
    ...common,
    source: "startup",
    ...(host === "codex" ? { model: "gpt-test", permission_mode: "default" } : {}),
  };
}

/** The fields of a result that every front end must agree on (durations and paths of spill files aside). */
export function comparable(r: DispatchResult): Json {
  return {
    ...r,
    runs: r.runs.map((x) => ({ ...x, duration_ms: x.duration_ms === null ? null : "n" })),
  };
}
