/**
 * MCP-tool handlers (SPEC §7.3): `${a.b}` expansion of the handler's `input`, the one-shot runner
 * (Streamable HTTP servers only: a one-shot dispatch never starts a server, so stdio servers are
 * "not connected" there), and the connection pool `serve` uses (each server a runnable hook resolves
 * opened once, reused across events, never restarted by a hook). Which definition a hook calls is
 * decided by discovery (src/config/mcp_servers.ts, SPEC §2.7); the runners use only that one.
 *
 * Whatever goes wrong — a missing server, a stdio server in one-shot mode, an unavailable tool, a
 * transport error, `isError: true` — becomes a RawCompletion with `spawnError` set; a timeout sets
 * `timedOut`. Either way the handler is `failed` and never blocks. A successful call becomes stdout
 * (the JSON of `structuredContent`, else the concatenated text content) with exit code 0, so the
 * §8 rules in src/output/protocol.ts read it exactly like a command's output.
 *
 * The SDK costs ~150 ms to import, so it is imported only when an mcp_tool handler runs.
 * @module
 */
import type { AnyCatalog, Catalog, HookHandler } from "../config/discovery.ts";
import type { JsonObject } from "../util/json.ts";
import type { RawCompletion } from "./types.ts";
import { CAPTURE_LIMIT } from "./capture.ts";
import { canonicalJson } from "../trust/hash.ts";
import { delay, MAX_TIMER_MS } from "../util/timer.ts";
import denoJson from "../../deno.json" with { type: "json" };

type SdkClient = import("@modelcontextprotocol/sdk/client/index.js").Client;
/** The parts of a `tools/call` result the engine reads (the SDK's type is a compatibility union). */
type CallResult = { content?: unknown; structuredContent?: unknown; isError?: unknown };

/** How the client introduces itself to servers. */
const CLIENT_INFO = { name: "mind-hooks", version: denoJson.version };
/** Default bound on opening a server (initialize handshake), as Codex's `startup_timeout_sec`. */
const DEFAULT_STARTUP_TIMEOUT_SEC = 10;
/**
 * Longest wait for a one-shot connection to close before abandoning it: cleanup must not stretch a
 * dispatch much past the handler's timeout.
 */
const ONE_SHOT_CLOSE_MS = 1000;
/**
 * Longest wait for a pooled connection to close. The SDK closes a stdio server by closing its stdin,
 * then SIGTERM after 2 s, then SIGKILL after 2 more: waiting it out means no server outlives serve.
 */
const POOL_CLOSE_MS = 5000;

// ---------------------------------------------------------------------------------------------
// Placeholder expansion

const WHOLE = /^\$\{([^{}]*)\}$/;
const ANY = /\$\{([^{}]*)\}/g;
const MISSING = Symbol("missing");

/** The value at a dot path (`a.b.0`) of `input`, or MISSING. */
function lookup(input: unknown, path: string): unknown {
  let cur: unknown = input;
  for (const seg of path.trim().split(".")) {
    if (seg === "") return MISSING;
    if (Array.isArray(cur)) {
      if (!/^\d+$/.test(seg) || Number(seg) >= cur.length) return MISSING;
      cur = cur[Number(seg)];
    } else if (cur !== null && typeof cur === "object" && Object.hasOwn(cur, seg)) {
      cur = (cur as Record<string, unknown>)[seg];
    } else {
      return MISSING;
    }
  }
  return cur === undefined ? MISSING : cur;
}

/** A value as text inside a larger string: strings as they are, objects and arrays as JSON. */
function asText(v: unknown): string {
  if (v === MISSING || v === null) return "";
  if (typeof v === "string") return v;
  if (typeof v === "object") return JSON.stringify(v);
  return String(v);
}

/**
 * Expands `${field.nested}` placeholders in a handler's `input` template against the hook input
 * (SPEC §7.3). A placeholder that is the whole string keeps the JSON type of the value (a missing
 * path gives `null`); inside a larger string the value is rendered as text (objects and arrays as
 * JSON, a missing path or null as `""`). Objects and arrays expand recursively; keys are never
 * expanded. Numeric segments index arrays (`${tool_input.args.0}`).
 */
export function expandPlaceholders(template: unknown, input: Record<string, unknown>): unknown {
  if (typeof template === "string") {
    const whole = WHOLE.exec(template);
    if (whole) {
      const v = lookup(input, whole[1]);
      return v === MISSING ? null : structuredClone(v);
    }
    return template.includes("${") ? template.replace(ANY, (_, path: string) => asText(lookup(input, path))) : template;
  }
  if (Array.isArray(template)) return template.map((t) => expandPlaceholders(t, input));
  if (template !== null && typeof template === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(template)) out[k] = expandPlaceholders(v, input);
    return out;
  }
  return template;
}

// ---------------------------------------------------------------------------------------------
// Server configuration

/** A `[mcp_servers.<name>]` entry, checked. */
export type ServerSpec =
  | { kind: "http"; url: string; headers: Record<string, string>; toolTimeoutSec: number | null }
  | {
    kind: "stdio";
    command: string;
    args: string[];
    env: Record<string, string>;
    cwd: string | null;
    startupTimeoutSec: number;
    toolTimeoutSec: number | null;
  };

function stringRecord(v: unknown): Record<string, string> | null {
  if (v === undefined) return {};
  if (v === null || typeof v !== "object" || Array.isArray(v)) return null;
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v)) {
    if (typeof x !== "string") return null;
    out[k] = x;
  }
  return out;
}

function positive(v: unknown): number | null {
  return typeof v === "number" && Number.isFinite(v) && v > 0 ? v : null;
}

/** Reads one server entry (SPEC §2.7): `url` (+ `headers`) or `command` (+ `args`, `env`). */
export function serverSpec(name: string, cfg: JsonObject): ServerSpec | { error: string } {
  const where = `[mcp_servers.${name}]`;
  if (cfg.enabled === false) return { error: `${where} is disabled (enabled = false)` };
  const toolTimeoutSec = positive(cfg.tool_timeout_sec);
  if (cfg.url !== undefined && cfg.command !== undefined) {
    return { error: `${where} has both url and command; give one` };
  }
  if (typeof cfg.url === "string") {
    let url: URL;
    try {
      url = new URL(cfg.url);
    } catch {
      return { error: `${where} url ${JSON.stringify(cfg.url)} is not a URL` };
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      return { error: `${where} url must be http:// or https://` };
    }
    // `http_headers` is Codex's spelling of the same table.
    const headers = stringRecord(cfg.headers ?? cfg.http_headers);
    if (!headers) return { error: `${where} headers must be a table of strings` };
    // Codex's `env_http_headers` and `bearer_token_env_var`: secrets stay in the environment, not in
    // a config file. Discovery removes both from a stranger's definition (SPEC §2.7), so only a
    // user-side server can name a variable here.
    const envHeaders = stringRecord(cfg.env_http_headers);
    if (!envHeaders) return { error: `${where} env_http_headers must be a table of strings` };
    for (const [header, variable] of Object.entries(envHeaders)) {
      const value = Deno.env.get(variable);
      if (value) headers[header] = value;
    }
    if (typeof cfg.bearer_token_env_var === "string") {
      const token = Deno.env.get(cfg.bearer_token_env_var);
      if (!token) return { error: `${where} bearer_token_env_var ${cfg.bearer_token_env_var} is not set` };
      headers.Authorization = `Bearer ${token}`;
    }
    return { kind: "http", url: url.href, headers, toolTimeoutSec };
  }
  if (typeof cfg.command === "string" && cfg.command.trim() !== "") {
    const args = cfg.args ?? [];
    if (!Array.isArray(args) || args.some((a) => typeof a !== "string")) {
      return { error: `${where} args must be a list of strings` };
    }
    const env = stringRecord(cfg.env);
    if (!env) return { error: `${where} env must be a table of strings` };
    // Codex's `env_vars`: engine variables passed through by name (user-side servers only, SPEC §2.7).
    const passed = cfg.env_vars ?? [];
    if (!Array.isArray(passed) || passed.some((v) => typeof v !== "string")) {
      return { error: `${where} env_vars must be a list of variable names` };
    }
    for (const variable of passed as string[]) {
      const value = Deno.env.get(variable);
      if (value !== undefined && !Object.hasOwn(env, variable)) env[variable] = value;
    }
    return {
      kind: "stdio",
      command: cfg.command,
      args: args as string[],
      env,
      cwd: typeof cfg.cwd === "string" ? cfg.cwd : null,
      startupTimeoutSec: positive(cfg.startup_timeout_sec) ?? DEFAULT_STARTUP_TIMEOUT_SEC,
      toolTimeoutSec,
    };
  }
  return { error: `${where} needs url (Streamable HTTP) or command (stdio)` };
}

// ---------------------------------------------------------------------------------------------
// Completions

function completion(
  started: number,
  timeoutSec: number,
  fields: Partial<RawCompletion>,
): RawCompletion {
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
    durationMs: performance.now() - started,
    timeoutSec,
    ...fields,
  };
}

/** The one-line text of an error, bounded. */
function errorText(e: unknown): string {
  let msg = e instanceof Error ? e.message : String(e);
  // fetch says only "fetch failed"; the reason (connection refused, DNS, TLS) is in the cause.
  const cause = e instanceof Error && e.cause instanceof Error ? e.cause.message : null;
  if (cause && !msg.includes(cause)) msg = `${msg}: ${cause}`;
  const line = msg.trim().split("\n", 1)[0] ?? "";
  return line.length > 300 ? line.slice(0, 300) + "…" : line;
}

/** What the tool returned, read as a command's stdout would be (SPEC §7.3). */
export function toolResultCompletion(
  label: string,
  result: CallResult,
  started: number,
  timeoutSec: number,
): RawCompletion {
  const content = Array.isArray(result.content) ? result.content : [];
  const texts: string[] = [];
  for (const c of content as { type?: unknown; text?: unknown }[]) {
    if (c && typeof c === "object" && c.type === "text" && typeof c.text === "string") texts.push(c.text);
  }
  if (result.isError === true) {
    const detail = texts.join("").trim().split("\n", 1)[0] ?? "";
    return completion(started, timeoutSec, {
      spawnError: `${label} returned isError${detail ? `: ${detail.slice(0, 300)}` : ""}`,
    });
  }
  const structured = result.structuredContent;
  let stdout = structured !== undefined && structured !== null ? JSON.stringify(structured) : texts.join("");
  let truncated = false;
  // The same bound as a command's captured stdout: a huge tool result must not be held whole.
  if (stdout.length > CAPTURE_LIMIT) {
    stdout = stdout.slice(0, CAPTURE_LIMIT);
    truncated = true;
  }
  return completion(started, timeoutSec, { stdout, exitCode: 0, stdoutTruncated: truncated });
}

/** The checks shared by both runners, before any connection. */
function prepare(
  h: HookHandler,
):
  | { ok: true; name: string; tool: string; spec: ServerSpec; config: JsonObject; timeoutSec: number; label: string }
  | { ok: false; reason: string; timeoutSec: number } {
  const handler = h.handler;
  if (handler.type !== "mcp_tool") {
    return { ok: false, reason: "not an mcp_tool handler", timeoutSec: handler.timeout };
  }
  const label = `mcp_tool ${handler.server}/${handler.tool}`;
  // The definition discovery resolved for this hook, in its own scope (SPEC §2.7): the one its hash covers.
  const cfg = h.server?.config;
  if (!cfg) {
    return {
      ok: false,
      reason: `${label}: MCP server ${
        JSON.stringify(handler.server)
      } is not configured ([mcp_servers.${handler.server}])`,
      timeoutSec: handler.timeout,
    };
  }
  const spec = serverSpec(handler.server, cfg);
  if ("error" in spec) return { ok: false, reason: `${label}: ${spec.error}`, timeoutSec: handler.timeout };
  // Seed 003: the shorter of the hook's and the server's tool timeout applies.
  const timeoutSec = spec.toolTimeoutSec === null ? handler.timeout : Math.min(handler.timeout, spec.toolTimeoutSec);
  return { ok: true, name: handler.server, tool: handler.tool, spec, config: cfg, timeoutSec, label };
}

/** Runs `work` with an abort signal, giving up (and aborting) after `ms`. */
async function withDeadline<T>(
  ms: number,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<{ value: T } | { timedOut: true }> {
  const ctl = new AbortController();
  // Chunked: a deadline past 2^31 ms must not expire at once (SPEC §15).
  const timer = delay(ms);
  const expired = timer.promise.then(() => {
    ctl.abort(new Error("timeout"));
    return { timedOut: true as const };
  });
  try {
    return await Promise.race([work(ctl.signal).then((value) => ({ value })), expired]);
  } finally {
    timer.cancel();
  }
}

/**
 * The SDK's own request timer is a plain `setTimeout`: past 2^31 ms it would fire at once. Our
 * chunked deadline ({@link withDeadline}) holds the real timeout; the SDK's is capped below it.
 */
function sdkTimeout(ms: number): number {
  return Math.min(ms, MAX_TIMER_MS);
}

/** Closes without waiting longer than `ms`; never throws. */
async function closeQuietly(close: () => Promise<void>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    close().catch(() => {}),
    new Promise<void>((r) => {
      timer = setTimeout(r, ms);
    }),
  ]);
  clearTimeout(timer);
}

// ---------------------------------------------------------------------------------------------
// SDK loading (lazy)

type HttpSdk = {
  Client: typeof import("@modelcontextprotocol/sdk/client/index.js").Client;
  StreamableHTTPClientTransport:
    typeof import("@modelcontextprotocol/sdk/client/streamableHttp.js").StreamableHTTPClientTransport;
};

let httpSdk: Promise<HttpSdk> | null = null;

function loadHttpSdk(): Promise<HttpSdk> {
  httpSdk ??= Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
  ]).then(([c, t]) => ({ Client: c.Client, StreamableHTTPClientTransport: t.StreamableHTTPClientTransport }));
  return httpSdk;
}

function httpTransport(sdk: HttpSdk, spec: Extract<ServerSpec, { kind: "http" }>) {
  return new sdk.StreamableHTTPClientTransport(new URL(spec.url), {
    requestInit: { headers: spec.headers },
    // A hook never reconnects a server (SPEC §7.3): a dropped stream is an error, not a retry loop.
    reconnectionOptions: {
      maxRetries: 0,
      initialReconnectionDelay: 1000,
      maxReconnectionDelay: 1000,
      reconnectionDelayGrowFactor: 1,
    },
  });
}

/** Every tool name the server lists (all pages). */
async function listToolNames(client: SdkClient, signal: AbortSignal, timeoutMs: number): Promise<Set<string>> {
  const names = new Set<string>();
  let cursor: string | undefined = undefined;
  for (let page = 0; page < 100; page++) {
    const res: Awaited<ReturnType<SdkClient["listTools"]>> = await client.listTools(
      cursor === undefined ? undefined : { cursor },
      { signal, timeout: sdkTimeout(timeoutMs) },
    );
    for (const t of res.tools) names.add(t.name);
    cursor = res.nextCursor;
    if (!cursor) break;
  }
  return names;
}

function unavailable(label: string, name: string, tool: string): string {
  return `${label}: tool ${JSON.stringify(tool)} is not available on MCP server ${JSON.stringify(name)}`;
}

// ---------------------------------------------------------------------------------------------
// One-shot runner

/**
 * Runs an mcp_tool handler in one-shot `dispatch` (SPEC §7.3): Streamable-HTTP servers are connected
 * for this call and closed after it; stdio servers are "not connected" (a hook never starts a
 * server). Every failure is a failed completion, never an exception.
 */
export async function runMcpOneShot(
  h: HookHandler,
  hookInput: JsonObject,
  _catalog?: AnyCatalog,
): Promise<RawCompletion> {
  const started = performance.now();
  const prep = prepare(h);
  if (!prep.ok) return completion(started, prep.timeoutSec, { spawnError: prep.reason });
  const { spec, label, name, tool, timeoutSec } = prep;
  if (spec.kind === "stdio") {
    return completion(started, timeoutSec, {
      spawnError: `${label}: stdio MCP server ${
        JSON.stringify(name)
      } is not connected (a one-shot dispatch never starts servers; hosts that keep servers use mind-hooks serve)`,
    });
  }
  const args = expandPlaceholders(h.handler.type === "mcp_tool" ? h.handler.input : {}, hookInput) as JsonObject;
  let client: SdkClient | null = null;
  let transport: ReturnType<typeof httpTransport> | null = null;
  try {
    const sdk = await loadHttpSdk();
    const ms = timeoutSec * 1000;
    const outcome = await withDeadline(ms, async (signal) => {
      const c = new sdk.Client(CLIENT_INFO, { capabilities: {} });
      client = c;
      transport = httpTransport(sdk, spec);
      await c.connect(transport, { signal, timeout: sdkTimeout(ms) });
      const tools = await listToolNames(c, signal, ms);
      if (!tools.has(tool)) return { unavailable: true as const };
      return {
        result: await c.callTool({ name: tool, arguments: args }, undefined, { signal, timeout: sdkTimeout(ms) }),
      };
    });
    if ("timedOut" in outcome) return completion(started, timeoutSec, { timedOut: true });
    if ("unavailable" in outcome.value) {
      return completion(started, timeoutSec, { spawnError: unavailable(label, name, tool) });
    }
    return toolResultCompletion(label, outcome.value.result, started, timeoutSec);
  } catch (e) {
    return completion(started, timeoutSec, {
      spawnError: `${label}: MCP server ${JSON.stringify(name)} (${spec.url}): ${errorText(e)}`,
    });
  } finally {
    // A stateful server keeps a session per connection: end it (HTTP DELETE) rather than leave it
    // to expire. Both steps are bounded; a server that stopped answering cannot hold the dispatch.
    const t = transport as ReturnType<typeof httpTransport> | null;
    if (t?.sessionId) await closeQuietly(() => t.terminateSession(), ONE_SHOT_CLOSE_MS);
    const c = client as SdkClient | null;
    if (c) await closeQuietly(() => c.close(), ONE_SHOT_CLOSE_MS);
  }
}

// ---------------------------------------------------------------------------------------------
// Connection pool (serve)

/** One open (or failed) server connection of a pool. */
type Conn = {
  name: string;
  spec: ServerSpec;
  /** Resolves once connected (with the tool names), or with why not. */
  ready: Promise<{ client: SdkClient; tools: Set<string> } | { error: string }>;
  /** Set when the connection ended after opening; it stays failed (a hook never reconnects). */
  dead: string | null;
  client: SdkClient | null;
};

/** A usable connection from {@link McpPool.get}. */
export type PoolConnection = {
  client: SdkClient;
  /** The tool names listed when the connection opened (refreshed when a tool is missing). */
  tools: Set<string>;
};

/**
 * The MCP runtime of `serve` (SPEC §7.3, §13): each server that a runnable hook resolves (SPEC §2.7)
 * is opened once — stdio (`command`, `args`, `env`) or Streamable HTTP (`url`, `headers`) — and
 * reused by every event; connections are keyed by name and effective definition, so a project's
 * server never shares a connection (or a token) with a user-side one of the same name. A
 * hook never restarts a server: a server that failed to open or died stays failed until `serve`
 * restarts or its configuration changes (a changed entry is a new connection).
 */
export class McpPool {
  readonly #conns = new Map<string, Conn>();
  #opened = 0;
  #closed = false;

  /** How many connections this pool has opened so far (diagnostics and tests). */
  get opened(): number {
    return this.#opened;
  }

  /** The connection of server `name` with configuration `cfg`, opening it on first use. */
  async get(name: string, cfg: JsonObject): Promise<PoolConnection | { error: string }> {
    if (this.#closed) return { error: "the MCP pool is closed" };
    const spec = serverSpec(name, cfg);
    if ("error" in spec) return spec;
    const key = `${name}\0${canonicalJson(spec)}`;
    let conn = this.#conns.get(key);
    if (!conn) {
      conn = this.#open(name, spec);
      this.#conns.set(key, conn);
    }
    const ready = await conn.ready;
    if ("error" in ready) return ready;
    if (conn.dead) return { error: conn.dead };
    return ready;
  }

  /**
   * Starts opening the servers that runnable mcp_tool handlers of `catalog` resolve, without
   * waiting: only a hook allowed to run opens a server, and only the definition in its own scope.
   */
  prewarm(catalog: Catalog, runnable: (h: HookHandler) => boolean): void {
    for (const h of catalog.handlers) {
      if (h.handler.type !== "mcp_tool" || !h.server || !runnable(h)) continue;
      this.get(h.server.name, h.server.config).catch(() => {});
    }
  }

  /**
   * Closes the connections whose (name, configuration) is not in `keep` — a server that no hook
   * of a loaded configuration resolves any more.
   */
  async retain(keep: Iterable<[string, JsonObject]>): Promise<void> {
    const live = new Set<string>();
    for (const [name, cfg] of keep) {
      const spec = serverSpec(name, cfg);
      if (!("error" in spec)) live.add(`${name}\0${canonicalJson(spec)}`);
    }
    const gone = [...this.#conns.entries()].filter(([k]) => !live.has(k));
    for (const [k] of gone) this.#conns.delete(k);
    await Promise.all(gone.map(([, c]) => this.#closeConn(c)));
  }

  /** Runs an mcp_tool handler on a pooled connection: the `runMcp` of a serve dispatch. */
  async run(h: HookHandler, hookInput: JsonObject): Promise<RawCompletion> {
    const started = performance.now();
    const prep = prepare(h);
    if (!prep.ok) return completion(started, prep.timeoutSec, { spawnError: prep.reason });
    const { label, name, tool, timeoutSec, config } = prep;
    const args = expandPlaceholders(h.handler.type === "mcp_tool" ? h.handler.input : {}, hookInput) as JsonObject;
    const ms = timeoutSec * 1000;
    try {
      const outcome = await withDeadline(ms, async (signal) => {
        const conn = await this.get(name, config);
        if ("error" in conn) return { error: conn.error };
        if (!conn.tools.has(tool)) {
          // The server may have added tools since it opened: look once more before failing.
          for (const t of await listToolNames(conn.client, signal, ms)) conn.tools.add(t);
          if (!conn.tools.has(tool)) return { error: unavailable(label, name, tool) };
        }
        return {
          result: await conn.client.callTool({ name: tool, arguments: args }, undefined, {
            signal,
            timeout: sdkTimeout(ms),
          }),
        };
      });
      if ("timedOut" in outcome) return completion(started, timeoutSec, { timedOut: true });
      if ("error" in outcome.value) {
        const err = String(outcome.value.error);
        return completion(started, timeoutSec, { spawnError: err.startsWith(label) ? err : `${label}: ${err}` });
      }
      return toolResultCompletion(label, outcome.value.result, started, timeoutSec);
    } catch (e) {
      return completion(started, timeoutSec, {
        spawnError: `${label}: MCP server ${JSON.stringify(name)}: ${errorText(e)}`,
      });
    }
  }

  /** Closes every connection (stdio servers get their stdin closed, then are terminated). */
  async close(): Promise<void> {
    this.#closed = true;
    const all = [...this.#conns.values()];
    this.#conns.clear();
    await Promise.all(all.map((c) => this.#closeConn(c)));
  }

  async #closeConn(conn: Conn): Promise<void> {
    conn.dead ??= "the MCP connection was closed";
    const client = conn.client;
    // Closing the client also ends a connect still in progress, so shutdown never waits for a
    // slow server's start-up; before the client exists, close it once it does.
    if (client) await closeQuietly(() => client.close(), POOL_CLOSE_MS);
    else {
      conn.ready.then((r) => {
        if (!("error" in r)) closeQuietly(() => r.client.close(), POOL_CLOSE_MS);
      });
    }
  }

  #open(name: string, spec: ServerSpec): Conn {
    const conn: Conn = { name, spec, dead: null, client: null, ready: Promise.resolve({ error: "" }) };
    const where = spec.kind === "http"
      ? `MCP server ${JSON.stringify(name)} (${spec.url})`
      : `MCP server ${JSON.stringify(name)} (${spec.command})`;
    conn.ready = (async () => {
      try {
        const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
        let transport;
        if (spec.kind === "http") {
          transport = httpTransport(await loadHttpSdk(), spec);
        } else {
          const { StdioClientTransport, getDefaultEnvironment } = await import(
            "@modelcontextprotocol/sdk/client/stdio.js"
          );
          transport = new StdioClientTransport({
            command: spec.command,
            args: spec.args,
            env: { ...getDefaultEnvironment(), ...spec.env },
            ...(spec.cwd !== null ? { cwd: spec.cwd } : {}),
            // The server's stderr is not ours to show: serve's stdout/stderr belong to the host.
            stderr: "ignore",
          });
        }
        const client = new Client(CLIENT_INFO, { capabilities: {} });
        conn.client = client;
        client.onclose = () => {
          conn.dead ??= `${where} closed the connection (it is not restarted; restart serve or change its config)`;
        };
        const ms = (spec.kind === "stdio" ? spec.startupTimeoutSec : DEFAULT_STARTUP_TIMEOUT_SEC) * 1000;
        const opened = await withDeadline(ms, async (signal) => {
          await client.connect(transport, { signal, timeout: sdkTimeout(ms) });
          return await listToolNames(client, signal, ms);
        });
        if ("timedOut" in opened) {
          await closeQuietly(() => client.close(), POOL_CLOSE_MS);
          return { error: `${where} did not answer within ${ms / 1000}s of opening; it stays failed` };
        }
        this.#opened++;
        return { client, tools: opened.value };
      } catch (e) {
        const client = conn.client as SdkClient | null;
        if (client) await closeQuietly(() => client.close(), POOL_CLOSE_MS);
        return { error: `${where} could not be opened: ${errorText(e)}` };
      }
    })();
    return conn;
  }
}
