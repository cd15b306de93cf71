/**
 * Hook identity (SPEC §3.1) and content hash (SPEC §3.2).
 *
 * Hash: `sha256:` + lowercase hex of SHA-256 over the UTF-8 RFC 8785
 * canonical JSON of `{"event", "matcher", "handler"}` with the normalized
 * handler. For the JSON values we hash (strings, booleans, integers, objects,
 * arrays) RFC 8785 equals `JSON.stringify` with object keys sorted by UTF-16
 * code units at every depth.
 * @module
 */
import type { EventName } from "../events/names.ts";
import { sha256Hex } from "../util/sha256.ts";

/** The six layers, lowest to highest in configuration order. */
export const LAYERS = [
  "managed",
  "user",
  "profile",
  "project",
  "plugin",
  "cli",
] as const;
/** One configuration layer. */
export type Layer = typeof LAYERS[number];

/** A hook key: `<layer>:<path>:<Event>:<group index>:<handler index>`. */
export type HookKey = string;

/** Builds a hook key. */
export function hookKey(
  layer: Layer,
  path: string,
  event: EventName,
  group: number,
  handler: number,
): HookKey {
  return `${layer}:${path}:${event}:${group}:${handler}`;
}

/** Splits a hook key back into its parts (the path may itself contain colons). */
export function parseHookKey(
  key: string,
):
  | {
    layer: Layer;
    path: string;
    event: string;
    group: number;
    handler: number;
  }
  | null {
  const m = /^(managed|user|profile|project|plugin|cli):(.+):([A-Za-z]+):(\d+):(\d+)$/s
    .exec(key);
  if (!m) return null;
  return {
    layer: m[1] as Layer,
    path: m[2],
    event: m[3],
    group: Number(m[4]),
    handler: Number(m[5]),
  };
}

/** RFC 8785 canonical JSON for our value domain. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj).filter((k) => obj[k] !== undefined).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(",")}}`;
}

/** The normalized handler that enters the hash: exactly SPEC §3.2's keys. */
export type NormalizedHandler =
  | {
    type: "command";
    command: string;
    timeout: number;
    async: boolean;
    additionalContextLimit: number;
    commandWindows?: string;
    statusMessage?: string;
  }
  | {
    type: "mcp_tool";
    server: string;
    tool: string;
    input: Record<string, unknown>;
    timeout: number;
    statusMessage?: string;
    /**
     * The `[mcp_servers.<name>]` table the hook calls, as written in the file it resolves from
     * (SPEC §2.7, §3.2), or null when none resolves: redefining the server changes the hash.
     */
    serverSpec: Record<string, unknown> | null;
  };

/** The object whose canonical JSON is hashed. */
export function hashSubject(
  event: EventName,
  matcher: string | null,
  handler: NormalizedHandler,
): unknown {
  return { event, matcher, handler };
}

/** `sha256:<64 hex>` of the canonical JSON of the hash subject. */
export function contentHashSync(event: EventName, matcher: string | null, handler: NormalizedHandler): string {
  return `sha256:${sha256Hex(new TextEncoder().encode(canonicalJson(hashSubject(event, matcher, handler))))}`;
}

/** Async form of {@link contentHashSync}, kept for library callers. */
export function contentHash(event: EventName, matcher: string | null, handler: NormalizedHandler): Promise<string> {
  return Promise.resolve(contentHashSync(event, matcher, handler));
}
