/**
 * The content hash (SPEC §3.2) and key tails (SPEC §3.1); the key itself and the normalized handler
 * are described with the handler shape (`schema/handler.ts`).
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
import type { NormalizedHandler } from "../schema/handler.ts";

// The layers, the hook key and the normalized handler are described with the handler shape (the
// lowest folder that needs them); re-exported for the modules that hash and resolve keys.
export { type HookKey, hookKey, type Layer, LAYERS, type NormalizedHandler } from "../schema/handler.ts";

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
 * The object whose canonical JSON is hashed. *(SPEC §3.2 r3)* A handler of the Claude dialect (§8.1)
 * gains `"dialect": "claude"`: how its output is read is part of what was trusted, so a plugin that
 * swaps `.mind-plugin/` for `.claude-plugin/` makes its hooks `modified`. *(r4)* Gemini- and
 * Copilot-dialect handlers likewise carry their dialect. mind-dialect subjects, and so their hashes, are
 * as before.
 */
export function hashSubject(
  event: EventName,
  matcher: string | null,
  handler: NormalizedHandler,
  dialect: Dialect = "mind",
): unknown {
  return dialect !== "mind" ? { event, matcher, handler, dialect } : { event, matcher, handler };
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
