/**
 * A real MCP server for the mcp_tool and `serve` tests, written with the same SDK the engine uses.
 *
 * Usage:
 *   deno run -A tests/helpers/mcp_server.ts stdio [--log FILE]
 *   deno run -A tests/helpers/mcp_server.ts http [--log FILE] [--json] [--stateful]
 *
 * `http` listens on 127.0.0.1 on a random port and prints its endpoint URL (`http://127.0.0.1:PORT/mcp`)
 * as the first line of stdout. It serves the Streamable HTTP transport in stateless mode (a fresh
 * protocol server per request), or with `--stateful` with sessions (`Mcp-Session-Id`, one protocol
 * server per session, ended by the client's DELETE); responses are SSE streams, or JSON with `--json`.
 *
 * `--log FILE` appends one line per client connection, as the server sees it: `stdio <pid>` when a
 * stdio server process starts (one process is one connection), `http-initialize <pid> <authorization>`
 * for each `initialize` request over HTTP (its Authorization header, `-` when none), and
 * `http-session-closed <id>` when a stateful session is ended.
 * Tests count these lines to prove how often a server was opened (and closed).
 *
 * Tools (every one accepts any arguments):
 * - `allow`      — no output at all (the hook has no objection).
 * - `rewrite`    — a PreToolUse allow with `updatedInput.command` = the `command` argument + " --dry-run".
 * - `deny`       — a PreToolUse deny as structuredContent; the reason is the `reason` argument or a fixed text.
 * - `structured` — structuredContent with `additionalContext` = `structured:` + JSON of the arguments,
 *                  for the event named by the `event` argument (default UserPromptSubmit); its text
 *                  content says `IGNORED`, proving structuredContent wins.
 * - `text`       — two text parts, `text:` and the JSON of the arguments (they concatenate).
 * - `is_error`   — a result with `isError: true`.
 * - `hang`       — never answers.
 * - `crash`      — exits the whole server process (code 3) mid-call.
 *
 * @module
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { denoDir } from "./deno_dir.ts";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, type CallToolResult, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

/** The absolute path of this script. */
export const SERVER_SCRIPT: string = decodeURIComponent(new URL(import.meta.url).pathname);
/** The project's deno.json (the server needs its import map whatever the cwd). */
export const REPO_CONFIG: string = decodeURIComponent(new URL("../../deno.json", import.meta.url).pathname);

/** The argv that starts this server in `mode`. */
export function serverArgv(
  mode: "stdio" | "http",
  opts: { log?: string; json?: boolean; stateful?: boolean } = {},
): string[] {
  return [
    Deno.execPath(),
    "run",
    "-A",
    "-q",
    "--config",
    REPO_CONFIG,
    SERVER_SCRIPT,
    mode,
    ...(opts.log ? ["--log", opts.log] : []),
    ...(opts.json ? ["--json"] : []),
    ...(opts.stateful ? ["--stateful"] : []),
  ];
}

/** An `[mcp_servers.<name>]` entry that starts this server over stdio. */
export function stdioServerConfig(opts: { log?: string } = {}): Record<string, unknown> {
  const [command, ...args] = serverArgv("stdio", opts);
  const env: Record<string, string> = {};
  // The SDK hands stdio servers only a minimal environment (its HOME may name no folder in the tests):
  // the Deno cache must survive it.
  env.DENO_DIR = Deno.env.get("DENO_DIR") ?? denoDir();
  return { command, args, env, startup_timeout_sec: 60 };
}

/** A running HTTP test server. */
export type RunningServer = { url: string; pid: number; stop: () => Promise<void> };

/** Starts this server over Streamable HTTP on a random 127.0.0.1 port and waits for its URL. */
export async function startHttpServer(
  opts: { log?: string; json?: boolean; stateful?: boolean } = {},
): Promise<RunningServer> {
  const [program, ...args] = serverArgv("http", opts);
  const child = new Deno.Command(program, { args, stdin: "null", stdout: "piped", stderr: "null" }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("the MCP test server exited before printing its URL");
    text += value;
  }
  const url = text.split("\n", 1)[0].trim();
  return {
    url,
    pid: child.pid,
    stop: async () => {
      try {
        child.kill("SIGKILL");
      } catch { /* already gone (the crash tool) */ }
      await reader.cancel().catch(() => {});
      await child.status;
    },
  };
}

/** The names of the tools this server offers. */
export const TOOLS = ["allow", "rewrite", "deny", "structured", "text", "is_error", "hang", "crash"] as const;

function logLine(file: string | undefined, line: string): void {
  // Synchronous append: the line must be on disk before the reply that follows it.
  if (file) Deno.writeTextFileSync(file, line + "\n", { append: true });
}

/** What one tool call returns. */
async function callTool(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  switch (name) {
    case "allow":
      return { content: [] };
    case "rewrite":
      return {
        content: [],
        structuredContent: {
          hookSpecificOutput: {
            hookEventName: "PreToolUse",
            permissionDecision: "allow",
            updatedInput: { command: `${String(args.command ?? "")} --dry-run` },
          },
        },
      };
    case "deny":
      return {
        content: [{ type: "text", text: "denied" }],
        structuredContent: {
          hookSpecificOutput: {
            hookEventName: "PreToolUse",
            permissionDecision: "deny",
            permissionDecisionReason: typeof args.reason === "string" ? args.reason : "blocked by the MCP scanner",
          },
        },
      };
    case "structured": {
      const event = typeof args.event === "string" ? args.event : "UserPromptSubmit";
      return {
        content: [{ type: "text", text: "IGNORED" }],
        structuredContent: {
          hookSpecificOutput: { hookEventName: event, additionalContext: `structured:${JSON.stringify(args)}` },
        },
      };
    }
    case "text":
      return { content: [{ type: "text", text: "text:" }, { type: "text", text: JSON.stringify(args) }] };
    case "is_error":
      return { isError: true, content: [{ type: "text", text: "the scanner broke" }] };
    case "hang":
      await new Promise(() => {});
      return { content: [] };
    case "crash":
      Deno.exit(3);
  }
  throw new Error(`unknown tool ${name}`);
}

/** A protocol server with the test tools. */
function makeServer(): Server {
  const server = new Server({ name: "mind-hooks-test-server", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: TOOLS.map((name) => ({ name, description: `test tool ${name}`, inputSchema: { type: "object" as const } })),
  }));
  server.setRequestHandler(
    CallToolRequestSchema,
    (req: { params: { name: string; arguments?: Record<string, unknown> } }) =>
      callTool(req.params.name, (req.params.arguments ?? {}) as Record<string, unknown>),
  );
  return server;
}

async function serveStdio(log: string | undefined): Promise<void> {
  logLine(log, `stdio ${Deno.pid}`);
  const server = makeServer();
  const transport = new StdioServerTransport();
  // The client closing stdin ends the connection; exit then, as stdio servers do.
  transport.onclose = () => Deno.exit(0);
  await server.connect(transport);
}

function serveHttp(log: string | undefined, json: boolean, stateful: boolean): void {
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    onListen: ({ port }) => console.log(`http://127.0.0.1:${port}/mcp`),
  }, async (req) => {
    if (new URL(req.url).pathname !== "/mcp") return new Response("not found", { status: 404 });
    let parsedBody: unknown = undefined;
    if (req.method === "POST") {
      try {
        parsedBody = await req.json();
      } catch {
        return new Response("bad JSON", { status: 400 });
      }
      const messages = Array.isArray(parsedBody) ? parsedBody : [parsedBody];
      for (const m of messages) {
        if (m && typeof m === "object" && (m as { method?: unknown }).method === "initialize") {
          logLine(log, `http-initialize ${Deno.pid} ${req.headers.get("authorization") ?? "-"}`);
        }
      }
    }
    if (stateful) {
      const id = req.headers.get("mcp-session-id");
      const known = id ? sessions.get(id) : undefined;
      if (known) return await known.handleRequest(req, { parsedBody });
      if (id) return new Response("unknown session", { status: 404 });
      const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => crypto.randomUUID(),
        enableJsonResponse: json,
        onsessioninitialized: (sid: string) => {
          sessions.set(sid, transport);
        },
        onsessionclosed: (sid: string) => {
          sessions.delete(sid);
          logLine(log, `http-session-closed ${sid}`);
        },
      });
      await makeServer().connect(transport);
      return await transport.handleRequest(req, { parsedBody });
    }
    // Stateless mode: a fresh protocol server and transport per request.
    const server = makeServer();
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: json,
    });
    await server.connect(transport);
    return await transport.handleRequest(req, { parsedBody });
  });
}

if (import.meta.main) {
  const [mode, ...rest] = Deno.args;
  const logAt = rest.indexOf("--log");
  const log = logAt >= 0 ? rest[logAt + 1] : undefined;
  if (mode === "stdio") await serveStdio(log);
  else if (mode === "http") serveHttp(log, rest.includes("--json"), rest.includes("--stateful"));
  else {
    console.error("usage: mcp_server.ts stdio|http [--log FILE] [--json] [--stateful]");
    Deno.exit(2);
  }
}
