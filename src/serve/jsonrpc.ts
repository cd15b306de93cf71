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

/** What {@link LineSplitter} yields: a line's text (without its line break), or `null` for a line
 * over the limit, which is skipped (reported once, as soon as it passes the limit). */
export type SplitLine = string | null;

/**
 * Splits a byte stream into lines (SPEC §13: one message per line) in O(N) for N bytes: each byte
 * is looked at once when searching for line breaks and copied into the pending line's buffer once;
 * the buffer doubles as it grows, which copies at most twice as much again (≤ 3N in all), however
 * the stream is cut into chunks — one byte per read included, which keeps no object per chunk. A
 * line longer than `maxBytes` is not kept: it yields one `null` when it passes the limit, and its
 * remaining bytes are dropped up to its end, so memory stays bounded.
 *
 * Lines are decoded one by one, which is exact for UTF-8: a line break byte never occurs inside a
 * multi-byte sequence. Invalid bytes become U+FFFD; a BOM is dropped only at the very start.
 */
export class LineSplitter {
  readonly #maxBytes: number;
  /** The pending line: `#buf[0, #size)`. */
  #buf = new Uint8Array(0);
  #size = 0;
  #skipping = false;
  #first = true;
  readonly #decoder = new TextDecoder();
  readonly #decoderKeepingBom = new TextDecoder("utf-8", { ignoreBOM: true });
  /** Bytes searched for line breaks so far (tests check that this is linear). */
  scannedBytes = 0;
  /** Bytes copied so far (tests check that this is linear). */
  copiedBytes = 0;

  /** @param maxBytes the longest line kept, in bytes */
  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  /** The lines that `chunk` completes, in order. */
  push(chunk: Uint8Array): SplitLine[] {
    const out: SplitLine[] = [];
    let from = 0;
    while (from < chunk.length) {
      const nl = chunk.indexOf(10, from);
      const end = nl < 0 ? chunk.length : nl;
      this.scannedBytes += (nl < 0 ? chunk.length : nl + 1) - from;
      this.#keep(chunk.subarray(from, end), out);
      if (nl < 0) break;
      if (this.#skipping) this.#skipping = false;
      else out.push(this.#take());
      from = nl + 1;
    }
    return out;
  }

  /** The last line, when the stream ended without a final line break (else nothing). */
  end(): SplitLine[] {
    if (this.#skipping || this.#size === 0) return [];
    return [this.#take()];
  }

  #keep(part: Uint8Array, out: SplitLine[]): void {
    if (this.#skipping || part.length === 0) return;
    const size = this.#size + part.length;
    if (size > this.#maxBytes) {
      this.#release();
      this.#skipping = true;
      out.push(null);
      return;
    }
    if (size > this.#buf.length) {
      const grown = new Uint8Array(Math.min(this.#maxBytes, Math.max(size, 2 * this.#buf.length, 4096)));
      grown.set(this.#buf.subarray(0, this.#size));
      this.copiedBytes += this.#size;
      this.#buf = grown;
    }
    // A copy: the stream may reuse the chunk's buffer for its next read.
    this.#buf.set(part, this.#size);
    this.#size = size;
    this.copiedBytes += part.length;
  }

  #take(): string {
    const decoder = this.#first ? this.#decoder : this.#decoderKeepingBom;
    this.#first = false;
    const text = decoder.decode(this.#buf.subarray(0, this.#size));
    this.#release();
    return text;
  }

  /** Forgets the pending line; a large buffer is dropped so one long line does not pin its memory. */
  #release(): void {
    this.#size = 0;
    if (this.#buf.length > 1024 * 1024) this.#buf = new Uint8Array(0);
  }
}
