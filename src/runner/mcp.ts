/**
 * The one-shot runner of mcp_tool handlers (SPEC §7.3): Streamable HTTP servers only — a one-shot
 * dispatch never starts a server, so stdio servers are "not connected" there. The `serve` pool is
 * src/runner/mcp_pool.ts; what both share (checks, deadline, SDK loading, reading the result) is
 * src/runner/mcp_client.ts; the `${a.b}` expansion is src/runner/mcp_input.ts and the server entry
 * src/runner/mcp_spec.ts. Which definition a hook calls is decided by discovery
 * (src/config/mcp_servers.ts, SPEC §2.7); the runners use only that one.
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
import type { AnyCatalog, HookHandler } from "../config/discovery.ts";
import type { JsonObject } from "../util/json.ts";
import type { RawCompletion } from "./types.ts";
import {
  CLIENT_INFO,
  closeQuietly,
  completion,
  errorText,
  httpTransport,
  listToolNames,
  loadHttpSdk,
  prepare,
  type SdkClient,
  sdkTimeout,
  toolResultCompletion,
  unavailable,
  withDeadline,
} from "./mcp_client.ts";
import { expandPlaceholders } from "./mcp_input.ts";
import { fail, ok } from "../util/result.ts";
import { spawnQueue } from "./spawn_queue.ts";

/**
 * Longest wait for a one-shot connection to close before abandoning it: cleanup must not stretch a
 * dispatch much past the handler's timeout.
 */
const ONE_SHOT_CLOSE_MS = 1000;

// ---------------------------------------------------------------------------------------------
// One-shot runner

/**
 * Runs an mcp_tool handler in one-shot `dispatch` (SPEC §7.3): Streamable-HTTP servers are connected
 * for this call and closed after it; stdio servers are "not connected" (a hook never starts a
 * server). Every failure is a failed completion, never an exception. Its connection holds
 * descriptors as a command does: it waits for a slot of the same queue (src/runner/spawn_queue.ts),
 * and its deadline starts then.
 */
export async function runMcpOneShot(
  h: HookHandler,
  hookInput: JsonObject,
  _catalog?: AnyCatalog,
): Promise<RawCompletion> {
  return await (await spawnQueue()).run(() => callOneShot(h, hookInput));
}

async function callOneShot(h: HookHandler, hookInput: JsonObject): Promise<RawCompletion> {
  const started = performance.now();
  const prep = prepare(h);
  if (!prep.ok) return completion(started, prep.error.timeoutSec, { spawnError: prep.error.reason });
  const { spec, label, name, tool, timeoutSec } = prep.value;
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
      if (!tools.has(tool)) return fail(unavailable(label, name, tool));
      return ok(await c.callTool({ name: tool, arguments: args }, undefined, { signal, timeout: sdkTimeout(ms) }));
    });
    if (!outcome.ok) return completion(started, timeoutSec, { timedOut: true });
    if (!outcome.value.ok) return completion(started, timeoutSec, { spawnError: outcome.value.error });
    return toolResultCompletion(label, outcome.value.value, started, timeoutSec);
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
