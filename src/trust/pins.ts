/**
 * Pinned files (SPEC §3.5): the files a trusted hook's command runs that live where a stranger can
 * change them — inside the project root (project-rooted layers) or the plugin root — hashed when
 * the hook is trusted and checked before it runs.
 *
 * Which files: every file the command reader (src/trust/command_files.ts) finds the command naming
 * or running inside the root, whatever its type or folder; for a project hook whose script lies
 * under `.mind/`, `.claude/` or `.codex/` (or a word naming such a folder), the *code files* of that
 * folder and below (helper modules); a package a Python or Node command runs and the folders
 * `find … -exec` searches, their code files; for a plugin, the code files under its root. Code
 * files (SPEC §3.5 r3): a source extension ({@link CODE_EXTENSIONS}), an executable bit, or `#!` as
 * the first bytes — so the logs and caches a hook writes beside itself never modify it. Tree scans
 * leave out the layers' own configuration and a plugin's manifests and hooks files (hashed as
 * definitions already), `.git/`, `__pycache__/`, `.DS_Store`. Bounded: at most
 * {@link MAX_PINNED_FILES} files and {@link MAX_PINNED_BYTES} bytes per hook, beyond which the hook
 * cannot be trusted; the walk stops as soon as a bound is passed, so a hostile tree costs little.
 *
 * At dispatch the command is read again from the run's cwd and PATH (SPEC §3.5 r3): a word that now
 * names another file inside the root appears in the set as `added`.
 *
 * A symbolic link inside a pinned folder is pinned by where it points (the SHA-256 of its target
 * text), and what it leads to inside the root is pinned too: a file by its bytes, a folder walked
 * (once; a link loop ends there). A word naming a file through links is pinned at its real path.
 * @module
 */
import { readingKey } from "../shell/reading_cache.ts";
import { inheritedLoaders } from "../shell/loader_vars.ts";
import type { CommandReading } from "../shell/shell_reader.ts";
import { LAYER_FOLDERS, type PinScope, SKIPPED_FOLDERS } from "./pin_scope.ts";
import { matchSegment } from "../shell/glob.ts";

import type { FileHashCache } from "./file_hash_cache.ts";

export type { PinScope } from "./pin_scope.ts";
export { type CachedHash, FileHashCache } from "./file_hash_cache.ts";

/** The source extensions of code files (SPEC §3.5 r3). */
export const CODE_EXTENSIONS: ReadonlySet<string> = new Set([
  ".py",
  ".js",
  ".mjs",
  ".cjs",
  ".ts",
  ".mts",
  ".cts",
  ".jsx",
  ".tsx",
  ".sh",
  ".bash",
  ".zsh",
  ".fish",
  ".rb",
  ".pl",
  ".pm",
  ".php",
  ".lua",
  ".ps1",
  ".psm1",
  ".bat",
  ".cmd",
  ".jar",
  ".wasm",
]);

/** At most this many files are pinned for one hook (SPEC §3.5). */
export const MAX_PINNED_FILES = 256;
/** At most this many bytes are pinned for one hook (SPEC §3.5). */
export const MAX_PINNED_BYTES = 8 * 1024 * 1024;
/** Folders a walk visits at most, and how deep it goes: a tree of empty folders is bounded too. */
const MAX_FOLDERS = 4096;
const MAX_DEPTH = 64;

/** Pinned files: root-relative `/`-separated path → `sha256:<64 hex>` of its bytes. */
export type PinnedFiles = Record<string, string>;

/**
 * The files a hook pins now, or why it cannot pin them; `fetch` notes a network fetch, `unpinnable` the
 * first construct of the command that cannot be resolved to files (SPEC §3.5 r3).
 */
export type PinSet =
  | {
    ok: true;
    files: PinnedFiles;
    fetch: string | null;
    unpinnable: string | null;
    contents: Map<string, Uint8Array>;
    /** Why each pinned file is in the hook's closure (SPEC §3.5 r4), for people; absent for a set built by hand. */
    why?: Record<string, string>;
  }
  | { ok: false; error: string; fetch: string | null; unpinnable: string | null };

/** How one pinned file differs from what was trusted. */
export type PinChange = { path: string; change: "changed" | "removed" | "added" };

/** The comparison of the stored pins with the current ones. */
export type PinCheck = {
  /** Null when the pins hold; else the run reason `modified: …` (SPEC §3.5). */
  reason: string | null;
  changes: PinChange[];
  /** Trusted before pins were recorded (no `trusted_files`) while the hook has files to pin. */
  unrecorded: boolean;
};

/** Where the command runs (SPEC §3.5 r3): trust happens without an event, so the root stands for the cwd. */
export type RunPlace = {
  /** The run's cwd (default: the root). */
  cwd?: string;
  /** The environment the hook gets (`PATH`, `PYTHONPATH`); default: this process's. */
  env?: Readonly<Record<string, string | undefined>>;
};

/** Options of {@link currentPins}. */
export type PinOptions = RunPlace & {
  /** A file-hash cache by stat signature (`serve`). */
  cache?: FileHashCache;
  /** Keep the bytes of files up to this size (copies for diffs), at most `keepTotal` in all. */
  keepBytes?: number;
  keepTotal?: number;
};

/** The variables of this process the reader reads (the hook gets the same). */
export function processEnv(): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const name of ["PATH", "PYTHONPATH", "CDPATH"]) {
    try {
      out[name] = Deno.env.get(name);
    } catch {
      // not readable here: unknown to the reader
    }
  }
  try {
    // The loader variables the hook inherits (SPEC §3.5 r4): judged against the environment it runs with.
    const all = Deno.env.toObject();
    for (const name of inheritedLoaders(all)) out[name] = all[name];
  } catch {
    // a sandbox that lets only some names be read: those above
  }
  return out;
}

/** The files `scope`'s hook pins now, hashed. Never throws: a file-system failure is an error value. */
export async function currentPins(scope: PinScope, opts: PinOptions = {}): Promise<PinSet> {
  let fetch: string | null = null;
  let unpinnable: string | null = null;
  try {
    const reading = await readingOf(scope, opts);
    fetch = reading.fetch;
    unpinnable = reading.unpinnable;
    const found = new Map<string, string>(); // rel → path to read
    const links = new Map<string, string>(); // rel → link target text
    const trees = new Map<string, string[]>(scope.kind === "plugin" ? [["", []]] : []); // rel → find -name patterns
    const addTree = (rel: string, names: string[] = []) => trees.set(rel, [...(trees.get(rel) ?? []), ...names]);
    /** A word naming a folder pins its code when it is a project layer folder (or below one). */
    const namedFolder = (rel: string) => {
      if (scope.kind === "project" && LAYER_FOLDERS.includes(rel.split("/")[0])) addTree(rel);
    };
    const modelled = new Set(reading.modelled);
    const pythonTrees = new Map<string, string>(); // rel → whose sys.path it is
    // Why each file is in the hook's closure, for `list` and `review` (SPEC §3.5 r4): the first reason found.
    const why = new Map<string, string>();
    const because = (rel: string, reason: string) => {
      if (!why.has(rel)) why.set(rel, reason);
    };
    for (const candidate of reading.files) {
      const link = namedLink(scope, candidate);
      // A link the command names is pinned by where it points too: pointing it at another program
      // (`.venv/bin/python` → `/bin/sh`) changes what runs the pinned script.
      if (link !== null) {
        links.set(link.rel, link.target);
        because(link.rel, "a link the command names");
      }
      const hit = insideRoot(scope, candidate);
      if (hit === null) continue;
      if (hit.kind === "folder") {
        namedFolder(hit.rel);
        continue;
      }
      // A file the command names is pinned whatever its type or folder (SPEC §3.5 r3).
      found.set(hit.rel, `${scope.root}/${hit.rel}`);
      because(hit.rel, modelled.has(candidate) ? "a script the command runs" : "named by the command");
      const top = hit.rel.split("/")[0];
      // The script-folder rule is the fallback (SPEC §3.5 r4): a script whose closure its language's
      // model gave pins that closure, not every code file beside it.
      if (modelled.has(candidate)) continue;
      if (scope.kind === "project" && LAYER_FOLDERS.includes(top) && hit.rel.includes("/")) {
        addTree(hit.rel.slice(0, hit.rel.lastIndexOf("/")));
      }
    }
    for (const f of reading.folders) {
      const hit = insideRoot(scope, f.path);
      if (hit?.kind !== "folder") continue;
      if (f.why === "token") namedFolder(hit.rel);
      else if (f.why === "python") pythonTrees.set(hit.rel, pythonTrees.get(hit.rel) ?? f.of ?? "a Python script");
      else addTree(hit.rel, f.names);
    }
    const names = [...trees.values()].flat();
    const walked = walkTrees(
      scope,
      outermost([...trees.keys()]),
      (path, name) => treeFile(path, name, names),
      { found, links, why, because: (tree) => `code of ${tree === "" ? "the root" : tree + "/"}` },
    ) ??
      walkTrees(scope, outermost([...pythonTrees.keys()]), pythonModule, {
        found,
        links,
        why,
        because: (tree) => `sys.path of ${pythonTrees.get(tree) ?? tree}`,
      });
    for (const rel of [...found.keys(), ...links.keys()]) because(rel, "in the hook's closure");
    if (walked !== null) return { ok: false, error: walked, fetch, unpinnable };
    if (found.size + links.size > MAX_PINNED_FILES) return { ok: false, error: tooMany(), fetch, unpinnable };
    const set = await hashAll(found, links, opts, fetch, unpinnable);
    return set.ok
      ? { ...set, why: Object.fromEntries([...why].filter(([rel]) => Object.hasOwn(set.files, rel))) }
      : set;
  } catch (e) {
    return { ok: false, error: `cannot read its files: ${errorText(e)}`, fetch, unpinnable };
  }
}

/**
 * What the command runs: the reading kept in the cache while its look-ups hold, else a fresh one (the
 * reader is loaded only then: its code costs more to start than to run).
 */
async function readingOf(scope: PinScope, opts: PinOptions): Promise<CommandReading> {
  const ctx = { root: scope.root, cwd: opts.cwd ?? scope.root, vars: scope.vars, home: scope.home };
  const full = { ...ctx, env: opts.env ?? processEnv() };
  const key = opts.cache ? readingKey(scope.command, full) : "";
  const kept = opts.cache?.reading(key) ?? null;
  if (kept !== null) return kept;
  const { readOnDisk } = await import("./command_files.ts");
  const { reading, deps } = readOnDisk(scope.command, full);
  opts.cache?.storeReading(key, deps, reading);
  return reading;
}

function tooMany(): string {
  return `more than ${MAX_PINNED_FILES} files to pin (the bound is ${MAX_PINNED_FILES} files and 8 MiB per hook)`;
}

/**
 * The root-relative path of `candidate` when it is a regular file or a folder whose real path is inside
 * the root. The file-system calls here and in the walk are synchronous: a few local stats cost less
 * than the promise round trips of their asynchronous forms, on the dispatch path of every matched hook.
 */
function insideRoot(scope: PinScope, candidate: string): { kind: "file" | "folder"; rel: string } | null {
  if (!lexicallyInside(scope.root, candidate)) return null;
  return insideTarget(scope, candidate);
}

/** The symbolic link `candidate` is, when it is one inside the root: its root-relative path and target text. */
function namedLink(scope: PinScope, candidate: string): { rel: string; target: string } | null {
  if (!lexicallyInside(scope.root, candidate)) return null;
  try {
    if (!Deno.lstatSync(candidate).isSymlink) return null;
    const rel = relativeTo(scope.root, normalizePath(candidate));
    return rel === null ? null : { rel, target: Deno.readLinkSync(candidate) };
  } catch {
    return null;
  }
}

/** Where a link leads when that is a regular file or a folder inside the real root, else null. */
function insideTarget(scope: PinScope, link: string): { kind: "file" | "folder"; rel: string } | null {
  let real: string;
  try {
    real = Deno.realPathSync(link);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound || e instanceof Deno.errors.NotADirectory) return null;
    throw e;
  }
  const rel = relativeTo(scope.root, real);
  if (rel === null) return null;
  const info = Deno.statSync(real);
  return info.isFile ? { kind: "file", rel } : info.isDirectory ? { kind: "folder", rel } : null;
}

function excluded(scope: PinScope, rel: string): boolean {
  if (scope.excludedFiles.has(rel)) return true;
  const parts = rel.split("/");
  const name = parts[parts.length - 1];
  if (name === ".DS_Store" || name.endsWith(".pyc")) return true;
  if (parts.slice(0, -1).some((p) => SKIPPED_FOLDERS.has(p))) return true;
  for (let n = 1; n < parts.length; n++) if (scope.excludedFolders.has(parts.slice(0, n).join("/"))) return true;
  return false;
}

/** The trees that are not inside another tree of the list (`""` is the root itself). */
function outermost(trees: string[]): string[] {
  return trees.filter((t) => !trees.some((o) => o !== t && (o === "" || t.startsWith(o + "/"))));
}

/**
 * Whether a file in a pinned tree is code (SPEC §3.5 r3): a source extension, an executable bit, or
 * `#!` as its first bytes. Data a hook writes beside itself (logs, caches, JSON) is not.
 */
export function isCodeFile(path: string, name: string): boolean {
  const dot = name.lastIndexOf(".");
  if (dot > 0 && CODE_EXTENSIONS.has(name.slice(dot).toLowerCase())) return true;
  const info = Deno.statSync(path);
  if (info.mode !== null && (info.mode & 0o111) !== 0) return true;
  if (info.size < 2) return false;
  const file = Deno.openSync(path);
  try {
    const head = new Uint8Array(2);
    return file.readSync(head) === 2 && head[0] === 0x23 && head[1] === 0x21;
  } finally {
    file.close();
  }
}

/** Whether a file found in a tree is pinned: code, or a name a `find -name` of the command picks. */
function treeFile(path: string, name: string, names: readonly string[]): boolean {
  return isCodeFile(path, name) || names.some((p) => matchSegment(p, name));
}

/** Whether a file in a Python script's directory can be imported as a module (SPEC §3.5 r4). */
function pythonModule(_path: string, name: string): boolean {
  return /\.(?:py|pyw|so|pyd)$/i.test(name);
}

/** Walks the trees into `found` and `links`, keeping the files `pick` takes; an error sentence when a bound is passed. */
function walkTrees(
  scope: PinScope,
  trees: string[],
  pick: (path: string, name: string) => boolean,
  into: {
    found: Map<string, string>;
    links: Map<string, string>;
    why: Map<string, string>;
    because: (tree: string) => string;
  },
): string | null {
  const { found, links } = into;
  /** The first reason a file was found for is the one shown. */
  const noted = (rel: string, tree: string) => {
    if (!into.why.has(rel)) into.why.set(rel, into.because(tree));
  };
  let folders = 0;
  const stack: { rel: string; depth: number; tree: string }[] = trees.map((rel) => ({ rel, depth: 0, tree: rel }));
  // Folders reached through links are walked once (a link loop ends here).
  const seen = new Set(trees);
  while (stack.length > 0) {
    const { rel, depth, tree } = stack.pop()!;
    if (++folders > MAX_FOLDERS || depth > MAX_DEPTH) {
      return `more than ${MAX_FOLDERS} folders, or folders deeper than ${MAX_DEPTH}, to pin`;
    }
    const dir = rel === "" ? scope.root : `${scope.root}/${rel}`;
    const entries = [...Deno.readDirSync(dir)];
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const child = rel === "" ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory) {
        if (!SKIPPED_FOLDERS.has(e.name) && !scope.excludedFolders.has(child)) {
          stack.push({ rel: child, depth: depth + 1, tree });
        }
        continue;
      }
      if (excluded(scope, child)) continue;
      if (e.isSymlink) {
        // Pinned by where it points; what it leads to inside the root is pinned (or walked) too.
        links.set(child, Deno.readLinkSync(`${scope.root}/${child}`));
        noted(child, tree);
        const target = insideTarget(scope, `${scope.root}/${child}`);
        const targetPath = `${scope.root}/${target?.rel}`;
        if (
          target?.kind === "file" && !excluded(scope, target.rel) && pick(targetPath, basename(target.rel))
        ) {
          found.set(target.rel, targetPath);
          noted(target.rel, tree);
        }
        if (target?.kind === "folder" && !seen.has(target.rel) && !excluded(scope, `${target.rel}/x`)) {
          seen.add(target.rel);
          stack.push({ rel: target.rel, depth: depth + 1, tree });
        }
      } else if (e.isFile && pick(`${scope.root}/${child}`, e.name)) {
        found.set(child, `${scope.root}/${child}`);
        noted(child, tree);
      }
      if (found.size + links.size > MAX_PINNED_FILES) return tooMany();
    }
  }
  return null;
}

/** Hashes every found file (and link) within the byte bound. */
async function hashAll(
  found: Map<string, string>,
  links: Map<string, string>,
  opts: PinOptions,
  fetch: string | null,
  unpinnable: string | null,
): Promise<PinSet> {
  const files: PinnedFiles = {};
  const contents = new Map<string, Uint8Array>();
  // Sizes first: the byte bound is decided before anything is read.
  const infos = [...found].map(([rel, path]) => ({ rel, path, info: Deno.statSync(path) }));
  let total = 0;
  for (const { info } of infos) total += info.size;
  if (total > MAX_PINNED_BYTES) {
    return {
      ok: false,
      error: `more than 8 MiB of files to pin (the bound is 8 MiB and 256 files per hook)`,
      fetch,
      unpinnable,
    };
  }
  let kept = 0;
  // Cached hashes first, synchronously: with nothing changed, no promise is made at all.
  const misses: typeof infos = [];
  for (const entry of infos) {
    const cached = opts.cache?.lookup(entry.path, entry.info);
    const keep = opts.keepBytes !== undefined && entry.info.size <= opts.keepBytes;
    if (cached !== undefined && !keep) files[entry.rel] = cached;
    else misses.push(entry);
  }
  await Promise.all(misses.map(async ({ rel, path, info }) => {
    const started = Date.now();
    const bytes = Deno.readFileSync(path);
    const hash = await sha256(bytes);
    files[rel] = hash;
    opts.cache?.store(path, info, hash, started);
    if (
      opts.keepBytes !== undefined && info.size <= opts.keepBytes && kept + bytes.length <= (opts.keepTotal ?? Infinity)
    ) {
      kept += bytes.length;
      contents.set(rel, bytes);
    }
  }));
  for (const [rel, target] of links) files[rel] ??= await sha256(new TextEncoder().encode(target));
  return { ok: true, files: sortedRecord(files), fetch, unpinnable, contents };
}

/** `sha256:<64 hex>` of `bytes` (Web Crypto: native, ~10× the plain implementation on 10 KB files). */
export async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
  let hex = "";
  for (const b of digest) hex += b.toString(16).padStart(2, "0");
  return `sha256:${hex}`;
}

function sortedRecord(files: PinnedFiles): PinnedFiles {
  const out: PinnedFiles = {};
  for (const k of Object.keys(files).sort()) out[k] = files[k];
  return out;
}

const HASH = /^sha256:[0-9a-f]{64}$/;

/**
 * Compares the stored pins (`trusted_files`, null when absent) with the current set (SPEC §3.4,
 * §3.5): a changed, removed or added file, a set that cannot be pinned, or files where nothing
 * was recorded make the hook modified, with a reason naming the first file (in path order).
 */
export function comparePins(
  stored: Readonly<Record<string, unknown>> | null,
  current: PinSet,
  unpinnable: UnpinnableFacts = { stored: null, requirePins: false },
): PinCheck {
  if (!current.ok) return { reason: `modified: ${current.error}`, changes: [], unrecorded: false };
  const check = compareFiles(stored, current.files);
  if (check.reason !== null || current.unpinnable === null) return check;
  // An unpinnable hook runs once the user was told (SPEC §3.5 r3): its state records the construct.
  const what = `cannot tell which files this runs: ${current.unpinnable}`;
  if (unpinnable.requirePins) return { ...check, reason: `modified: ${what} (hooks.require_pins is set)` };
  if (unpinnable.stored === null) return { ...check, reason: `modified: ${what} (not known when it was trusted)` };
  return check;
}

/** What decides about an unpinnable hook: the construct its state records, and `[hooks] require_pins`. */
export type UnpinnableFacts = { stored: string | null; requirePins: boolean };

function compareFiles(stored: Readonly<Record<string, unknown>> | null, now: PinnedFiles): PinCheck {
  if (stored === null) {
    const paths = Object.keys(now);
    if (paths.length === 0) return { reason: null, changes: [], unrecorded: false };
    return {
      reason: "modified: its files were never pinned (trusted before mind-hooks pinned files)",
      changes: paths.map((path) => ({ path, change: "added" })),
      unrecorded: true,
    };
  }
  const changes: PinChange[] = [];
  for (const path of [...new Set([...Object.keys(stored), ...Object.keys(now)])].sort()) {
    const was = Object.hasOwn(stored, path) ? stored[path] : undefined;
    const is = Object.hasOwn(now, path) ? now[path] : undefined;
    if (is === undefined) changes.push({ path, change: "removed" });
    else if (was === undefined) changes.push({ path, change: "added" });
    else if (typeof was !== "string" || !HASH.test(was) || was !== is) changes.push({ path, change: "changed" });
  }
  const first = changes[0];
  return { reason: first ? `modified: ${first.path} ${first.change}` : null, changes, unrecorded: false };
}

// Paths.

/** Whether `path`, with `.` and `..` read lexically, lies under `root`. */
function lexicallyInside(root: string, path: string): boolean {
  const base = normalizePath(root);
  return normalizePath(path).startsWith(base.endsWith("/") ? base : base + "/");
}

/** An absolute path with `/` separators, `.` and `..` segments and repeated separators removed
 * (a Windows drive prefix is kept). Lexical: the kernel's own resolution is checked after it. */
export function normalizePath(path: string): string {
  const p = path.replaceAll("\\", "/");
  const drive = /^[A-Za-z]:/.exec(p)?.[0] ?? "";
  const out: string[] = [];
  for (const seg of p.slice(drive.length).split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") out.pop();
    else out.push(seg);
  }
  return `${drive}/${out.join("/")}`;
}

/** The `/`-separated path of `real` relative to `root` (both real), or null when it is not below it. */
function relativeTo(root: string, real: string): string | null {
  const r = real.replaceAll("\\", "/");
  const base = root.replaceAll("\\", "/").replace(/\/$/, "");
  return r.startsWith(base + "/") ? r.slice(base.length + 1) : null;
}

function basename(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

function errorText(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split("\n")[0];
}
