/**
 * Reading one configuration file: TOML (`config.toml`, `requirements.toml`)
 * with smol-toml, JSONC (`hooks.json`, plugin manifests) with `JSON.parse`
 * first and jsonc-parser only when comments or trailing commas need it
 * (importing jsonc-parser costs ~40 ms, so the common strict-JSON case skips it).
 * A file that does not parse is a warning naming file, line and column.
 * @module
 */
import { parse as parseToml } from "smol-toml";
import { type Warning, warning } from "./warnings.ts";
import { formatValuePath, MAX_NESTING, TOO_DEEP, tooDeepOffset, tooDeepPath } from "../util/nesting.ts";
import { duplicateKeys } from "./duplicate_keys.ts";
import { jsoncErrorSentence, type JsonObject } from "../util/json.ts";
import { decodeUtf8Strict, NOT_UTF8 } from "../util/utf8.ts";
import { fail, ok, type Result } from "../util/result.ts";

/** A file read and parsed: its data, its text, and what was odd but not fatal (duplicate keys). */
export type ParsedFile = { readonly data: JsonObject; readonly text: string; readonly warnings: Warning[] };

/** Why a file was not loaded: it is missing, or the warning that says what is wrong with it. */
export type LoadFailure = { readonly missing: true } | { readonly missing: false; readonly warning: Warning };

/** The result of reading one file. */
export type LoadedFile = Result<ParsedFile, LoadFailure>;

/** Files larger than this are refused: a hostile 100 MB hooks.json must not stall every dispatch. */
export const MAX_CONFIG_BYTES = 16 * 1024 * 1024;

/** Line and column (1-based) of a UTF-16 offset in `text`. */
export function positionOf(
  text: string,
  offset: number,
): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** The offset where each line of `text` starts (for many {@link positionAt} look-ups). */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

/** Line and column (1-based) of a UTF-16 offset, from {@link lineStarts}. */
export function positionAt(starts: readonly number[], offset: number): { line: number; column: number } {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - starts[lo] + 1 };
}

/**
 * Reads a file's text, or says why not. Synchronous calls: each async one waits for another thread
 * (src/util/paths.ts `realPathOr`), and a configuration file is small; the stat comes first, so a
 * FIFO or a folder is refused before it is opened.
 */
function readText(path: string): Result<string, ReadFailure> {
  try {
    const info = Deno.statSync(path);
    if (!info.isFile) return fail({ kind: "unreadable", message: "not a regular file" });
    if (info.size > MAX_CONFIG_BYTES) {
      return fail({ kind: "unreadable", message: `larger than ${MAX_CONFIG_BYTES / 1024 / 1024} MiB` });
    }
    // Strictly: TOML and JSON are UTF-8, and a lossy read would load a broken trust store as fine.
    const decoded = decodeUtf8Strict(Deno.readFileSync(path));
    if (decoded.ok) return decoded;
    const { before } = decoded.error;
    return fail({ kind: "invalidUtf8", at: positionOf(before, before.length) });
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return danglingLink(path) ?? fail({ kind: "missing" });
    return fail({ kind: "unreadable", message: e instanceof Error ? e.message : String(e) });
  }
}

/**
 * A file that is a link leading nowhere is a broken file, not an absent one (SPEC §2.2 r4): a dotfile
 * manager's link whose target moved would otherwise lose every hook in it without a word.
 */
function danglingLink(path: string): Result<never, ReadFailure> | null {
  try {
    if (!Deno.lstatSync(path).isSymlink) return null;
    let target = "";
    try {
      target = ` to ${Deno.readLinkSync(path)}`;
    } catch {
      // the link's own text is not granted: said without it
    }
    return fail({ kind: "dangling", message: `a link${target} that leads nowhere` });
  } catch {
    return null;
  }
}

/** Why a configuration file's text could not be read: absent, not UTF-8 (where), or unreadable (why). */
type ReadFailure =
  | { readonly kind: "missing" }
  | { readonly kind: "dangling"; readonly message: string }
  | { readonly kind: "invalidUtf8"; readonly at: { line: number; column: number } }
  | { readonly kind: "unreadable"; readonly message: string };

/** The W_PARSE warning of a file nesting deeper than {@link MAX_NESTING} levels (SPEC §15). */
function tooDeepWarning(
  kind: "TOML" | "JSON",
  source: string,
  where: { line?: number; column?: number; path?: (string | number)[] },
): Warning {
  const at = where.path && where.path.length > 0 ? ` (at ${formatValuePath(where.path)})` : "";
  // The message names the deep path; the warning carries no `path` (64 keys a stranger chose).
  return warning("W_PARSE", `${kind} ${TOO_DEEP}${at}; the file is not loaded`, source, {
    line: where.line,
    column: where.column,
  });
}

/** Parses TOML text into a plain object, or a W_PARSE warning. */
export function parseTomlText(
  text: string,
  source: string,
): Result<JsonObject, Warning> {
  let parsed: unknown;
  try {
    // smol-toml bounds inline arrays and tables itself; past that it would only build values we refuse.
    // Integers past 2^53 become (rounded) numbers, as JSON.parse makes them, not a parse error:
    // `timeout = 99999999999999999999` is a valid, if long, timeout (SPEC §15).
    parsed = parseToml(text, { maxDepth: MAX_NESTING, integersAsBigInt: "asNeeded" });
  } catch (e) {
    const err = e as { message?: string; line?: number; column?: number };
    // smol-toml prefixes every message with "Invalid TOML document: ": the warning says that already.
    const first = String(err.message ?? e).split("\n", 1)[0].replace(/^Invalid TOML document:\s*/, "");
    if (/excessively nested/.test(first)) return fail(tooDeepWarning("TOML", source, err));
    return fail(warning("W_PARSE", `TOML does not parse: ${first}`, source, { line: err.line, column: err.column }));
  }
  // Dotted keys and table headers nest without limit in TOML; smol-toml does not count them.
  const deep = tooDeepPath(parsed);
  if (deep) return fail(tooDeepWarning("TOML", source, { path: deep }));
  return ok(toPlain(parsed) as JsonObject);
}

/**
 * smol-toml gives null-prototype objects and TomlDate values; hashing and validation want plain
 * JSON. A key such as `__proto__` stays an own property (as JSON.parse makes it), never the new
 * object's prototype. Recursive: callers have bounded the depth.
 */
function toPlain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toPlain);
  if (value instanceof Date) return value.toISOString();
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      // Assignment keeps the object fast; only `__proto__` needs defining (assigned, it would set the prototype).
      if (k === "__proto__") {
        Object.defineProperty(out, k, { value: toPlain(v), enumerable: true, writable: true, configurable: true });
      } else out[k] = toPlain(v);
    }
    return out;
  }
  if (typeof value === "bigint") return Number(value);
  return value;
}

/** At most this many W_DUPLICATE_KEY warnings per file; then one line with the count. */
const MAX_DUPLICATE_WARNINGS = 20;

/** W_DUPLICATE_KEY warnings for the repeated keys of a JSON text that parsed (the last one is used). */
export function duplicateKeyWarnings(text: string, source: string): Warning[] {
  const dups = duplicateKeys(text);
  if (dups.length === 0) return [];
  const starts = lineStarts(text);
  const at = (offset: number) => positionAt(starts, offset);
  const out = dups.slice(0, MAX_DUPLICATE_WARNINGS).map((d) => {
    const first = at(d.firstOffset);
    const where = d.path === "" ? "the root object" : d.path;
    return warning(
      "W_DUPLICATE_KEY",
      `duplicate key ${
        JSON.stringify(d.key)
      } in ${where} (also at ${first.line}:${first.column}): this last one is used`,
      source,
      at(d.offset),
    );
  });
  if (dups.length > MAX_DUPLICATE_WARNINGS) {
    out.push(
      warning("W_DUPLICATE_KEY", `${dups.length - MAX_DUPLICATE_WARNINGS} more duplicate keys not listed`, source),
    );
  }
  return out;
}

/** Parses JSONC text (comments and trailing commas allowed) into an object, or a W_PARSE warning. */
export async function parseJsoncText(
  text: string,
  source: string,
): Promise<Result<{ data: JsonObject; warnings: Warning[] }, Warning>> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // jsonc-parser recurses: deep text must not reach it (SPEC §15).
    const deepAt = tooDeepOffset(text);
    if (deepAt >= 0) return fail(tooDeepWarning("JSON", source, positionOf(text, deepAt)));
    const jsonc = await import("jsonc-parser");
    const errors: import("jsonc-parser").ParseError[] = [];
    value = jsonc.parse(text, errors, {
      allowTrailingComma: true,
      disallowComments: false,
    });
    if (errors.length > 0) {
      const e = errors[0];
      const what = jsoncErrorSentence(jsonc.printParseErrorCode(e.error), text.slice(e.offset, e.offset + e.length));
      return fail(warning("W_PARSE", `JSON does not parse: ${what}`, source, positionOf(text, e.offset)));
    }
  }
  if (tooDeepPath(value)) {
    // JSON.parse is iterative; what follows it (hashing, expansion, review) must not see this depth.
    return fail(tooDeepWarning("JSON", source, positionOf(text, tooDeepOffset(text))));
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return fail(warning("W_PARSE", "JSON root must be an object", source, { line: 1, column: 1 }));
  }
  return ok({ data: value as JsonObject, warnings: duplicateKeyWarnings(text, source) });
}

/**
 * Parses the fast-path decision made of the user's own files (src/sandbox/reach.ts), kept for the
 * discovery that follows in the same thread: each is taken once, and only for the very same bytes.
 */
const handedOver = new Map<string, { kind: "toml" | "json"; text: string; loaded: LoadedFile }>();

/**
 * Reads and parses a config file by its kind. With `handOver`, the parse is kept for the next load of
 * the same path in this thread, which takes it when the file still holds the same text (the
 * launcher's decision and discovery read one 167 KB config.toml once, not twice).
 */
export async function loadConfigFile(
  path: string,
  kind: "toml" | "json",
  opts: { handOver?: boolean; danglingIsAbsent?: boolean } = {},
): Promise<LoadedFile> {
  const loaded = await loadFresh(path, kind, opts.danglingIsAbsent ?? false);
  if (opts.handOver && loaded.ok) handedOver.set(path, { kind, text: loaded.value.text, loaded });
  return loaded;
}

async function loadFresh(path: string, kind: "toml" | "json", danglingIsAbsent: boolean): Promise<LoadedFile> {
  const read = readText(path);
  if (!read.ok) return unread(read.error, path, kind, danglingIsAbsent);
  const text = read.value;
  const kept = handedOver.get(path);
  if (kept !== undefined) {
    handedOver.delete(path);
    if (kept.kind === kind && kept.text === text) return kept.loaded;
  }
  if (kind === "toml") {
    const parsed = parseTomlText(text, path);
    if (!parsed.ok) return fail({ missing: false, warning: parsed.error });
    return ok({ data: parsed.value, text, warnings: [] });
  }
  const parsed = await parseJsoncText(text, path);
  if (!parsed.ok) return fail({ missing: false, warning: parsed.error });
  return ok({ data: parsed.value.data, text, warnings: parsed.value.warnings });
}

/** The load of a file whose text could not be read: missing, or the warning that says why. */
function unread(why: ReadFailure, path: string, kind: "toml" | "json", danglingIsAbsent: boolean): LoadedFile {
  switch (why.kind) {
    case "missing":
      return fail({ missing: true });
    case "dangling":
      return danglingIsAbsent
        ? fail({ missing: true })
        : fail({ missing: false, warning: warning("W_UNREADABLE", `cannot read: ${why.message}`, path) });
    case "invalidUtf8": {
      const what = `${kind === "toml" ? "TOML" : "JSON"} does not parse: ${NOT_UTF8}; the file is not loaded`;
      return fail({ missing: false, warning: warning("W_PARSE", what, path, why.at) });
    }
    case "unreadable":
      return fail({ missing: false, warning: warning("W_UNREADABLE", `cannot read: ${why.message}`, path) });
  }
}
