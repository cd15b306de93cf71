/**
 * What the two mcp_tool runners share (SPEC §7.3): the checks before a call, a deadline that also
 * aborts, bounded closing, the lazily imported SDK, and the reading of a tool's result as a
 * command's output (so src/output/protocol.ts reads both alike). Every failure is data.
 * @module
 */
import type { HookHandler } from "../config/discovery.ts";
import type { JsonObject } from "../util/json.ts";
import { type RawCompletion, rawCompletion } from "./types.ts";
import { CAPTURE_LIMIT } from "./capture.ts";
import { type ServerSpec, serverSpec } from "./mcp_spec.ts";
import { delay, MAX_TIMER_MS } from "../util/timer.ts";
import { fail, ok, type Result } from "../util/result.ts";
import denoJson from "../../deno.json" with { type: "json" };

/** A connected SDK client. */
export type SdkClient = import("@modelcontextprotocol/sdk/client/index.js").Client;
/** The parts of a `tools/call` result the engine reads (the SDK's type is a compatibility union). */
export type CallResult = { content?: unknown; structuredContent?: unknown; isError?: unknown };

/** How the client introduces itself to servers. */
export const CLIENT_INFO = { name: "mind-hooks", version: denoJson.version };

// ---------------------------------------------------------------------------------------------
// Completions

/** A completion of a call that started at `started`: nothing printed, unless `fields` says otherwise. */
export function completion(
  started: number,
  timeoutSec: number,
  fields: Partial<RawCompletion>,
): RawCompletion {
  return rawCompletion({ durationMs: performance.now() - started, timeoutSec, ...fields });
}

/** The one-line text of an error, bounded. */
export function errorText(e: unknown): string {
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

/** An mcp_tool handler checked for a call: its server's spec, the tool, the timeout that applies. */
export type PreparedCall = {
  name: string;
  tool: string;
  spec: ServerSpec;
  config: JsonObject;
  timeoutSec: number;
  label: string;
};

/** Why a handler cannot be called, and the timeout its failed completion reports. */
export type UnpreparedCall = { reason: string; timeoutSec: number };

/** The checks shared by both runners, before any connection. */
export function prepare(h: HookHandler): Result<PreparedCall, UnpreparedCall> {
  const handler = h.handler;
  if (handler.type !== "mcp_tool") {
    return fail({ reason: "not an mcp_tool handler", timeoutSec: handler.timeout });
  }
  const label = `mcp_tool ${handler.server}/${handler.tool}`;
  // The definition discovery resolved for this hook, in its own scope (SPEC §2.7): the one its hash covers.
  const cfg = h.server?.config;
  if (!cfg) {
    return fail({
      reason: `${label}: MCP server ${
        JSON.stringify(handler.server)
      } is not configured ([mcp_servers.${handler.server}])`,
      timeoutSec: handler.timeout,
    });
  }
  const read = serverSpec(handler.server, cfg);
  if (!read.ok) return fail({ reason: `${label}: ${read.error}`, timeoutSec: handler.timeout });
  const spec = read.value;
  // Seed 003: the shorter of the hook's and the server's tool timeout applies.
  const timeoutSec = spec.toolTimeoutSec === null ? handler.timeout : Math.min(handler.timeout, spec.toolTimeoutSec);
  return ok({ name: handler.server, tool: handler.tool, spec, config: cfg, timeoutSec, label });
}

/** Why {@link withDeadline} gave up. */
export const TIMED_OUT = "timed out";

/** Runs `work` with an abort signal, giving up (and aborting) after `ms`. */
export async function withDeadline<T>(
  ms: number,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<Result<T, typeof TIMED_OUT>> {
  const ctl = new AbortController();
  // Chunked: a deadline past 2^31 ms must not expire at once (SPEC §15).
  const timer = delay(ms);
  const expired = timer.promise.then(() => {
    ctl.abort(new Error("timeout"));
    return fail<typeof TIMED_OUT>(TIMED_OUT);
  });
  try {
    return await Promise.race([work(ctl.signal).then((value) => ok(value)), expired]);
  } finally {
    timer.cancel();
  }
}

/**
 * The SDK's own request timer is a plain `setTimeout`: past 2^31 ms it would fire at once. Our
 * chunked deadline ({@link withDeadline}) holds the real timeout; the SDK's is capped below it.
 */
export function sdkTimeout(ms: number): number {
  return Math.min(ms, MAX_TIMER_MS);
}

/** Closes without waiting longer than `ms`; never throws. */
export async function closeQuietly(close: () => Promise<void>, ms: number): Promise<void> {
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

/** The two SDK classes a Streamable HTTP connection needs. */
type HttpSdk = {
  Client: typeof import("@modelcontextprotocol/sdk/client/index.js").Client;
  StreamableHTTPClientTransport:
    typeof import("@modelcontextprotocol/sdk/client/streamableHttp.js").StreamableHTTPClientTransport;
};

let httpSdk: Promise<HttpSdk> | null = null;

/** The HTTP client half of the SDK, imported once on first use (it costs ~150 ms). */
export function loadHttpSdk(): Promise<HttpSdk> {
  httpSdk ??= Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
  ]).then(([c, t]) => ({ Client: c.Client, StreamableHTTPClientTransport: t.StreamableHTTPClientTransport }));
  return httpSdk;
}

/** A Streamable HTTP transport to `spec`'s server that never reconnects by itself. */
export function httpTransport(sdk: HttpSdk, spec: Extract<ServerSpec, { kind: "http" }>) {
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
export async function listToolNames(client: SdkClient, signal: AbortSignal, timeoutMs: number): Promise<Set<string>> {
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

/** The failure of a call to a tool the server does not list. */
export function unavailable(label: string, name: string, tool: string): string {
  return `${label}: tool ${JSON.stringify(tool)} is not available on MCP server ${JSON.stringify(name)}`;
}
