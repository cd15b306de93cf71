/**
 * Hook identity (SPEC §3.1) and content hash (SPEC §3.2).
 *
 * Hash: `sha256:` + lowercase hex of SHA-256 over the UTF-8 RFC 8785
 * canonical JSON of `{"event", "matcher", "handler"}` with the normalized
 * handler (plus `"dialect": "claude"` for a Claude-dialect handler, r3). For the JSON values we hash (strings, booleans, integers, objects,
 * arrays) RFC 8785 equals `JSON.stringify` with object keys sorted by UTF-16
 * code units at every depth.
 * @module
 */
import type { EventName } from "../events/names.ts";
import type { Dialect } from "../events/types.ts";
import { sha256Hex } from "../util/sha256.ts";
import type { RunRecord } from "../schema/result.ts";

/** The layers, lowest to highest in configuration order (SPEC §2.1, §2.8; the foreign user layers r3). */
export const LAYERS = [
  "managed",
  "user",
  "claude-user",
  "codex-user",
  "profile",
  "project",
  "claude-project",
  "codex-project",
  "plugin",
  "cli",
] as const;
/** One configuration layer. */
export type Layer = typeof LAYERS[number];
// The dispatch result's schema names the same layers: a layer missing there is a type error here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _sameLayers: Same<Layer, RunRecord["layer"]> = true;
void _sameLayers;

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

/**
 * True when `tail` names `key`: the whole key, or its end from a boundary of the key (after `:` or
 * a path separator), so `PreToolUse:0:0` and `hooks.json:PreToolUse:0:0` name
 * `user:/h/.mind/hooks.json:PreToolUse:0:0`, while `ToolUse:0:0` does not.
 */
export function keyHasTail(key: string, tail: string): boolean {
  if (tail === "" || !key.endsWith(tail)) return false;
  return key.length === tail.length || /[:/\\]/.test(key[key.length - tail.length - 1]);
}

/** A value still to render, on {@link canonicalJson}'s work stack (plain strings there are literal text). */
type Pending = { value: unknown };

/**
 * RFC 8785 canonical JSON for our value domain. Iterative (an explicit work stack), so a value of
 * any depth hashes without a stack overflow (SPEC §15).
 */
export function canonicalJson(value: unknown): string {
  let out = "";
  const work: (string | Pending)[] = [{ value }];
  while (work.length > 0) {
    const item = work.pop()!;
    if (typeof item === "string") {
      out += item;
      continue;
    }
    const v = item.value;
    if (v === null || typeof v !== "object") {
      // As `Array.prototype.join` renders an undefined element: nothing.
      out += JSON.stringify(v) ?? "";
      continue;
    }
    // Pushed in reverse: the stack pops the opening bracket's first element first.
    if (Array.isArray(v)) {
      out += "[";
      work.push("]");
      for (let i = v.length - 1; i >= 0; i--) {
        work.push({ value: v[i] });
        if (i > 0) work.push(",");
      }
      continue;
    }
    const obj = v as Record<string, unknown>;
    const keys = Object.keys(obj).filter((k) => obj[k] !== undefined).sort();
    out += "{";
    work.push("}");
    for (let i = keys.length - 1; i >= 0; i--) {
      work.push({ value: obj[keys[i]] });
      work.push(`${i > 0 ? "," : ""}${JSON.stringify(keys[i])}:`);
    }
  }
  return out;
}

/**
 * The normalized handler that enters the hash: exactly SPEC §3.2's keys. A handler's `name` is
 * display only and is deliberately not here (discovery keeps it beside the handler), so naming a
 * hook never changes its trust.
 */
export type NormalizedHandler =
  | {
    type: "command";
    command: string;
    timeout: number;
    async: boolean;
    additionalContextLimit: number;
    commandWindows?: string;
    statusMessage?: string;
    /** Claude Code's permission-rule filter (SPEC §2.2), only on hooks of the Claude dialect. */
    if?: string;
    /** SPEC §2.2: a failure blocks instead of letting the operation proceed; present only when true. */
    failClosed?: true;
  }
  | {
    type: "mcp_tool";
    server: string;
    tool: string;
    input: Record<string, unknown>;
    timeout: number;
    statusMessage?: string;
    /** As for command handlers. */
    if?: string;
    /** As for command handlers. */
    failClosed?: true;
    /**
     * The `[mcp_servers.<name>]` table the hook calls, as written in the file it resolves from
     * (SPEC §2.7, §3.2), or null when none resolves: redefining the server changes the hash.
     */
    serverSpec: Record<string, unknown> | null;
  };

/**
 * The object whose canonical JSON is hashed. *(SPEC §3.2 r3)* A handler of the Claude dialect (§8.1)
 * gains `"dialect": "claude"`: how its output is read is part of what was trusted, so a plugin that
 * swaps `.mind-plugin/` for `.claude-plugin/` makes its hooks `modified`. mind-dialect subjects, and so
 * their hashes, are as before.
 */
export function hashSubject(
  event: EventName,
  matcher: string | null,
  handler: NormalizedHandler,
  dialect: Dialect = "mind",
): unknown {
  return dialect === "claude" ? { event, matcher, handler, dialect } : { event, matcher, handler };
}

/** `sha256:<64 hex>` of the canonical JSON of the hash subject. */
export function contentHashSync(
  event: EventName,
  matcher: string | null,
  handler: NormalizedHandler,
  dialect: Dialect = "mind",
): string {
  const text = canonicalJson(hashSubject(event, matcher, handler, dialect));
  return `sha256:${sha256Hex(new TextEncoder().encode(text))}`;
}

/** Async form of {@link contentHashSync}, kept for library callers. */
export function contentHash(
  event: EventName,
  matcher: string | null,
  handler: NormalizedHandler,
  dialect: Dialect = "mind",
): Promise<string> {
  return Promise.resolve(contentHashSync(event, matcher, handler, dialect));
}

/** What a hook's content hash is taken over: its event, matcher, normalized handler and dialect. */
export type HashedHook = {
  readonly event: EventName;
  readonly matcher: string | null;
  readonly handler: NormalizedHandler;
  readonly dialect?: Dialect;
};

/** The hashes already taken, by hook record: a record is hashed once, and only when asked. */
const HOOK_HASHES = new WeakMap<HashedHook, string>();

/**
 * The content hash of a discovered hook, computed on first use and kept for the record: a dispatch
 * hashes only the handlers its event matched, so a catalog of 1,000 handlers does not pay 1,000
 * SHA-256s on every tool call, while the record itself stays plain data (no getter to lose on a copy).
 */
export function hookHash(h: HashedHook): string {
  let hash = HOOK_HASHES.get(h);
  if (hash === undefined) {
    hash = contentHashSync(h.event, h.matcher, h.handler, h.dialect);
    HOOK_HASHES.set(h, hash);
  }
  return hash;
}
