/**
 * JSON-RPC 2.0 framing for `serve` (SPEC §13): one message per line. Parsing a line never throws;
 * a bad line becomes the error to send back (or nothing, for a notification, as JSON-RPC requires).
 * @module
 */

/** Invalid JSON was received. */
export const PARSE_ERROR = -32700;
/** The JSON sent is not a valid request object. */
export const INVALID_REQUEST = -32600;
/** The method does not exist. */
export const METHOD_NOT_FOUND = -32601;
/** Invalid method parameters. */
export const INVALID_PARAMS = -32602;
/** Internal error. */
export const INTERNAL_ERROR = -32603;
/** Server-defined: the server is shutting down and takes no new requests. */
export const SHUTTING_DOWN = -32000;

/** A request id. */
export type RpcId = string | number | null;

/** An error that becomes a JSON-RPC error response. */
export class RpcError extends Error {
  override name = "RpcError";
  /** @param code the JSON-RPC error code @param message one line for the host */
  constructor(readonly code: number, message: string) {
    super(message);
  }
}

/** One parsed line. */
export type Incoming =
  | { kind: "request"; id: string | number | null; method: string; params: unknown }
  | { kind: "notification"; method: string; params: unknown }
  | { kind: "invalid"; id: RpcId; error: RpcError };

function isId(v: unknown): v is string | number | null {
  return v === null || typeof v === "string" || (typeof v === "number" && Number.isFinite(v));
}

/** Parses one line (without its line break). */
export function parseMessage(line: string): Incoming {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    return { kind: "invalid", id: null, error: new RpcError(PARSE_ERROR, `parse error: ${why}`) };
  }
  if (Array.isArray(value)) {
    return {
      kind: "invalid",
      id: null,
      error: new RpcError(INVALID_REQUEST, "batch requests are not supported: send one message per line"),
    };
  }
  if (value === null || typeof value !== "object") {
    return { kind: "invalid", id: null, error: new RpcError(INVALID_REQUEST, "a message must be a JSON object") };
  }
  const msg = value as Record<string, unknown>;
  const hasId = Object.hasOwn(msg, "id");
  const id = hasId && isId(msg.id) ? msg.id : null;
  if (hasId && !isId(msg.id)) {
    return {
      kind: "invalid",
      id: null,
      error: new RpcError(INVALID_REQUEST, "id must be a string, a number or null"),
    };
  }
  if (msg.jsonrpc !== "2.0") {
    return { kind: "invalid", id, error: new RpcError(INVALID_REQUEST, 'jsonrpc must be "2.0"') };
  }
  if (typeof msg.method !== "string" || msg.method === "") {
    return { kind: "invalid", id, error: new RpcError(INVALID_REQUEST, "method must be a non-empty string") };
  }
  if (msg.params !== undefined && (msg.params === null || typeof msg.params !== "object")) {
    return { kind: "invalid", id, error: new RpcError(INVALID_REQUEST, "params must be an object or an array") };
  }
  if (!hasId) return { kind: "notification", method: msg.method, params: msg.params };
  return { kind: "request", id, method: msg.method, params: msg.params };
}

/** A success response line. */
export function resultLine(id: RpcId, result: unknown): string {
  return JSON.stringify({ jsonrpc: "2.0", id, result: result ?? null });
}

/** An error response line. */
export function errorLine(id: RpcId, error: RpcError): string {
  return JSON.stringify({ jsonrpc: "2.0", id, error: { code: error.code, message: error.message } });
}

/** A notification line (engine → host). */
export function notificationLine(method: string, params: unknown): string {
  return JSON.stringify({ jsonrpc: "2.0", method, params });
}

/** The framing's line splitter (O(N) for a line of N bytes, SPEC §15), shared with the file readers. */
export { LineSplitter, type SplitLine } from "../util/line_split.ts";
