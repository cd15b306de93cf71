/**
 * The `http` handler runner (SPEC §2.2 r4): the event JSON is POSTed to the hook's URL
 * (`Content-Type: application/json`, its headers with `allowedEnvVars` interpolated); a 2xx body is the
 * hook's stdout, read by the §8 protocol like a command's (an empty one is success with no output); a
 * non-2xx status, a redirect (never followed), a network error or the timeout is a failure, so
 * `failClosed` applies. The interpolated header values live only in the request.
 * @module
 */
import type { HandlerOf } from "../config/handler_types/types.ts";
import { interpolateHeaders } from "../config/handler_types/http.ts";
import { CAPTURE_LIMIT } from "./capture.ts";
import { completion, errorText, withDeadline } from "./mcp_client.ts";
import type { RawCompletion } from "./types.ts";
import { spawnQueue } from "./spawn_queue.ts";

/** What one POST needs besides the handler: the event JSON and where variables are read. */
export type HttpCall = {
  body: string;
  /** Reads an environment variable (the run's environment: the daemon passes the client's). */
  env: (name: string) => string | undefined;
  /** The fetch to use (tests pass none: the global one). */
  fetch?: typeof fetch;
};

/** Reads at most {@link CAPTURE_LIMIT} bytes of a body, as a command's stdout is captured. */
async function boundedText(res: Response): Promise<{ text: string; truncated: boolean; invalidUtf8: boolean }> {
  if (res.body === null) return { text: "", truncated: false, invalidUtf8: false };
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.length > CAPTURE_LIMIT) {
      chunks.push(value.subarray(0, CAPTURE_LIMIT - size));
      truncated = true;
      await reader.cancel().catch(() => {});
      break;
    }
    chunks.push(value);
    size += value.length;
  }
  const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.length;
  }
  let invalidUtf8 = false;
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    invalidUtf8 = true;
    text = new TextDecoder().decode(bytes);
  }
  return { text, truncated, invalidUtf8 };
}

/** POSTs the event to an http hook and returns its completion (never throws). */
export async function runHttp(h: HandlerOf<"http">, call: HttpCall): Promise<RawCompletion> {
  // Its connection holds descriptors as a command does: it waits for a slot of the one queue
  // (src/runner/spawn_queue.ts, SPEC §6 r4), and its timeout counts from then.
  return await (await spawnQueue()).run(() => postOnce(h, call));
}

async function postOnce(h: HandlerOf<"http">, call: HttpCall): Promise<RawCompletion> {
  const started = performance.now();
  const headers = {
    ...interpolateHeaders(h.headers, h.allowedEnvVars, call.env),
    "content-type": "application/json",
  };
  const post = call.fetch ?? fetch;
  const where = new URL(h.url).host;
  type Answer = { kind: "failure"; reason: string } | { kind: "body"; text: string; truncated: boolean; utf8: boolean };
  const result = await withDeadline(h.timeout * 1000, async (signal): Promise<Answer> => {
    try {
      const res = await post(h.url, { method: "POST", body: call.body, headers, redirect: "manual", signal });
      if (res.type === "opaqueredirect" || (res.status >= 300 && res.status < 400)) {
        await res.body?.cancel().catch(() => {});
        return {
          kind: "failure",
          reason: `http ${where} answered a redirect (HTTP ${res.status}), which is not followed`,
        };
      }
      if (res.status < 200 || res.status >= 300) {
        await res.body?.cancel().catch(() => {});
        return { kind: "failure", reason: `http ${where} answered HTTP ${res.status}` };
      }
      const body = await boundedText(res);
      return { kind: "body", text: body.text, truncated: body.truncated, utf8: !body.invalidUtf8 };
    } catch (e) {
      return { kind: "failure", reason: `http ${where}: ${errorText(e)}` };
    }
  });
  if (!result.ok) return completion(started, h.timeout, { timedOut: true });
  const a = result.value;
  if (a.kind === "failure") return completion(started, h.timeout, { failure: a.reason });
  return completion(started, h.timeout, {
    stdout: a.text,
    exitCode: 0,
    stdoutTruncated: a.truncated,
    invalidUtf8: !a.utf8,
  });
}
