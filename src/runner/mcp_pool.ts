/**
 * The MCP connection pool of `serve` (SPEC §7.3, §13): each server a runnable hook resolves opened
 * once, reused across events, never restarted by a hook. The one-shot runner is src/runner/mcp.ts.
 * @module
 */
import type { Catalog, HookHandler } from "../config/discovery.ts";
import type { JsonObject } from "../util/json.ts";
import type { RawCompletion } from "./types.ts";
import * as mcp from "./mcp_client.ts";
import { expandPlaceholders } from "./mcp_input.ts";
import { DEFAULT_STARTUP_TIMEOUT_SEC, type ServerSpec, serverSpec } from "./mcp_spec.ts";
import { canonicalJson } from "../trust/hash.ts";
import { fail, ok, type Result } from "../util/result.ts";

/**
 * Longest wait for a pooled connection to close. The SDK closes a stdio server by closing its stdin,
 * then SIGTERM after 2 s, then SIGKILL after 2 more: waiting it out means no server outlives serve.
 */
const POOL_CLOSE_MS = 5000;

/** One open (or failed) server connection of a pool. */
type Conn = {
  name: string;
  spec: ServerSpec;
  /** Resolves once connected (with the tool names), or with why not. */
  ready: Promise<Result<PoolConnection>>;
  /** Set when the connection ended after opening; it stays failed (a hook never reconnects). */
  dead: string | null;
  client: mcp.SdkClient | null;
};

/** A usable connection from {@link McpPool.get}. */
export type PoolConnection = {
  client: mcp.SdkClient;
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
  async get(name: string, cfg: JsonObject): Promise<Result<PoolConnection>> {
    if (this.#closed) return fail("the MCP pool is closed");
    const read = serverSpec(name, cfg);
    if (!read.ok) return read;
    const spec = read.value;
    const key = `${name}\0${canonicalJson(spec)}`;
    let conn = this.#conns.get(key);
    if (!conn) {
      conn = this.#open(name, spec);
      this.#conns.set(key, conn);
    }
    const ready = await conn.ready;
    if (!ready.ok) return ready;
    if (conn.dead) return fail(conn.dead);
    return ready;
  }

  /**
   * Starts opening the servers that runnable mcp_tool handlers of `catalog` resolve, without
   * waiting: only a hook allowed to run opens a server, and only the definition in its own scope.
   */
  prewarm(catalog: Catalog, runnable: (h: HookHandler) => boolean): void {
    for (const h of catalog.handlers) {
      if (!h.server || !runnable(h)) continue;
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
      if (spec.ok) live.add(`${name}\0${canonicalJson(spec.value)}`);
    }
    const gone = [...this.#conns.entries()].filter(([k]) => !live.has(k));
    for (const [k] of gone) this.#conns.delete(k);
    await Promise.all(gone.map(([, c]) => this.#closeConn(c)));
  }

  /** Runs an mcp_tool handler on a pooled connection: the `runMcp` of a serve dispatch. */
  async run(h: HookHandler, hookInput: JsonObject): Promise<RawCompletion> {
    const started = performance.now();
    const prep = mcp.prepare(h);
    if (!prep.ok) return mcp.completion(started, prep.error.timeoutSec, { spawnError: prep.error.reason });
    const { label, name, tool, timeoutSec, config } = prep.value;
    const args = expandPlaceholders(h.handler.type === "mcp_tool" ? h.handler.input : {}, hookInput) as JsonObject;
    const ms = timeoutSec * 1000;
    try {
      const outcome = await mcp.withDeadline(ms, async (signal) => {
        const got = await this.get(name, config);
        if (!got.ok) return got;
        const conn = got.value;
        if (!conn.tools.has(tool)) {
          // The server may have added tools since it opened: look once more before failing.
          for (const t of await mcp.listToolNames(conn.client, signal, ms)) conn.tools.add(t);
          if (!conn.tools.has(tool)) return fail(mcp.unavailable(label, name, tool));
        }
        return ok(
          await conn.client.callTool({ name: tool, arguments: args }, undefined, {
            signal,
            timeout: mcp.sdkTimeout(ms),
          }),
        );
      });
      if (!outcome.ok) return mcp.completion(started, timeoutSec, { timedOut: true });
      if (!outcome.value.ok) {
        const err = String(outcome.value.error);
        return mcp.completion(started, timeoutSec, { spawnError: err.startsWith(label) ? err : `${label}: ${err}` });
      }
      return mcp.toolResultCompletion(label, outcome.value.value, started, timeoutSec);
    } catch (e) {
      return mcp.completion(started, timeoutSec, {
        spawnError: `${label}: MCP server ${JSON.stringify(name)}: ${mcp.errorText(e)}`,
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
    if (client) await mcp.closeQuietly(() => client.close(), POOL_CLOSE_MS);
    else {
      conn.ready.then((r) => {
        if (r.ok) mcp.closeQuietly(() => r.value.client.close(), POOL_CLOSE_MS);
      });
    }
  }

  #open(name: string, spec: ServerSpec): Conn {
    const conn: Conn = { name, spec, dead: null, client: null, ready: Promise.resolve(fail("")) };
    const where = spec.kind === "http"
      ? `MCP server ${JSON.stringify(name)} (${spec.url})`
      : `MCP server ${JSON.stringify(name)} (${spec.command})`;
    conn.ready = (async () => {
      try {
        const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
        let transport;
        if (spec.kind === "http") {
          transport = mcp.httpTransport(await mcp.loadHttpSdk(), spec);
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
        const client = new Client(mcp.CLIENT_INFO, { capabilities: {} });
        conn.client = client;
        client.onclose = () => {
          conn.dead ??= `${where} closed the connection (it is not restarted; restart serve or change its config)`;
        };
        const ms = (spec.kind === "stdio" ? spec.startupTimeoutSec : DEFAULT_STARTUP_TIMEOUT_SEC) * 1000;
        const opened = await mcp.withDeadline(ms, async (signal) => {
          await client.connect(transport, { signal, timeout: mcp.sdkTimeout(ms) });
          return await mcp.listToolNames(client, signal, ms);
        });
        if (!opened.ok) {
          await mcp.closeQuietly(() => client.close(), POOL_CLOSE_MS);
          return fail(`${where} did not answer within ${ms / 1000}s of opening; it stays failed`);
        }
        this.#opened++;
        return ok({ client, tools: opened.value });
      } catch (e) {
        const client = conn.client as mcp.SdkClient | null;
        if (client) await mcp.closeQuietly(() => client.close(), POOL_CLOSE_MS);
        return fail(`${where} could not be opened: ${mcp.errorText(e)}`);
      }
    })();
    return conn;
  }
}
