/**
 * What the command reader read, kept across dispatches (SPEC §3.5 r3): reading a command is a pure
 * function of its text, where it runs (root, cwd, the known variables, the home, `PATH`, `PYTHONPATH`,
 * `CDPATH`) and the few things it looked up on disk (folder listings for globs, `package.json` and
 * `deno.json` texts). A reading is kept with the digests of those look-ups and used again only when
 * each one still gives the same answer: then the reader itself — code that costs more to start than
 * to run, on every matched project hook — is not even loaded. `serve` keeps readings for the process;
 * a one-shot dispatch keeps a hook's beside its file hashes in the home (src/trust/pin_cache.ts).
 * @module
 */
import { inheritedLoaders } from "./loader_vars.ts";
import { sha256Hex } from "../util/sha256.ts";
import type { CommandReading, ReadContext, ReaderFs } from "./shell_reader.ts";

/** One look-up the reader made, and the digest of its answer. */
export type ReadDep = { list: string; digest: string } | { read: string; digest: string };

/** A kept reading: the look-ups it depends on, and what it found. */
export type KeptReading = { key: string; deps: ReadDep[]; reading: CommandReading };

/** Text files the reader opens (package.json, deno.json) are read only up to this size. */
const MAX_TEXT_BYTES = 1024 * 1024;

/** The reader's view of the real file system; anything that cannot be read (or is not allowed) is absent. */
export const diskView: ReaderFs = {
  list(dir) {
    try {
      const names: string[] = [];
      for (const e of Deno.readDirSync(dir)) names.push(e.name);
      return names;
    } catch {
      return null;
    }
  },
  readText(path) {
    try {
      const info = Deno.statSync(path);
      return info.isFile && info.size <= MAX_TEXT_BYTES ? Deno.readTextFileSync(path) : null;
    } catch {
      return null;
    }
  },
};

const encoder = new TextEncoder();

function digest(value: string[] | string | null): string {
  if (value === null) return "none";
  const text = Array.isArray(value) ? [...value].sort().join("\0") : value;
  return sha256Hex(encoder.encode(text));
}

/** A file-system view that records every look-up (for {@link KeptReading.deps}). */
export function recordingView(base: ReaderFs): { fs: ReaderFs; deps: ReadDep[] } {
  const deps: ReadDep[] = [];
  return {
    deps,
    fs: {
      list(dir) {
        const names = base.list(dir);
        deps.push({ list: dir, digest: digest(names) });
        return names;
      },
      readText(path) {
        const text = base.readText(path);
        deps.push({ read: path, digest: digest(text) });
        return text;
      },
    },
  };
}

/** Whether every look-up still gives the answer it gave. */
export function depsHold(deps: readonly ReadDep[], fs: ReaderFs = diskView): boolean {
  return deps.every((d) =>
    "list" in d ? digest(fs.list(d.list)) === d.digest : digest(fs.readText(d.read)) === d.digest
  );
}

/** The key of a reading: everything it depends on but the disk. */
export function readingKey(command: string, ctx: Omit<ReadContext, "fs">): string {
  const vars = Object.keys(ctx.vars).sort().map((k) => [k, ctx.vars[k]]);
  const env = ["PATH", "PYTHONPATH", "CDPATH", ...inheritedLoaders(ctx.env)].map((k) => [k, ctx.env[k] ?? null]);
  return sha256Hex(encoder.encode(JSON.stringify([command, ctx.root, ctx.cwd, vars, ctx.home, env])));
}

/** A kept reading as written (validated when read back: a damaged one is no reading). */
export function keptReadingOf(v: unknown): KeptReading | null {
  const k = v as Partial<KeptReading> | null;
  const r = k?.reading as Partial<CommandReading> | undefined;
  const strings = (xs: unknown) => Array.isArray(xs) && xs.every((x) => typeof x === "string");
  const ok = typeof k?.key === "string" && Array.isArray(k.deps) &&
    k.deps.every((d) =>
      typeof d?.digest === "string" && (typeof (d as { list?: unknown }).list === "string" ||
        typeof (d as { read?: unknown }).read === "string")
    ) &&
    r !== undefined && strings(r.files) && Array.isArray(r.folders) &&
    r.folders.every((f) =>
      typeof f?.path === "string" && ["token", "package", "find", "python"].includes(f.why) && strings(f.names) &&
      (f.of === undefined || typeof f.of === "string")
    ) &&
    strings(r.modelled) && (r.unpinnable === null || typeof r.unpinnable === "string") &&
    (r.fetch === null || typeof r.fetch === "string");
  return ok ? k as KeptReading : null;
}
