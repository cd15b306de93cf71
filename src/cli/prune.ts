/**
 * `mind-hooks prune [--yes]`: removes the trust state of files and projects that no longer exist —
 * `[hooks.state."<key>"]` tables whose key names a file that is gone, `[projects."<dir>"]` tables
 * whose folder is gone — and the kept copies of definitions trusted from such files (under
 * `$MIND_HOME/hooks/trusted/`). A dry run by default: it prints what it would remove and writes
 * nothing; `--yes` removes it, through the state writer (one locked, atomic, format-preserving
 * write of the user config.toml, SPEC §3.3).
 *
 * Only a path that is certainly gone counts (the file system says "not found"): one that cannot be
 * checked (permissions) is kept. Keys of `-c` overrides name no file and are kept.
 * @module
 */
import { type ParsedArgs, UsageError } from "../util/args.ts";
import { cliSettings } from "./context.ts";
import { loadConfigFile } from "../config/files.ts";
import { LAYERS } from "../trust/hash.ts";
import { removeStateTables, tomlKeyPath } from "../state/state_writer.ts";
import { isObject } from "../util/json.ts";
import { isAbsolutePath, join } from "../util/paths.ts";
import { terminalLines } from "../util/terminal_text.ts";

/**
 * The file a hook key names (SPEC §3.1), or null for a key that names none (`-c` overrides), is no
 * key, or names a relative path (hand-written: it would be checked against wherever prune runs).
 */
export function keyFile(key: string): string | null {
  const m = /^([a-z-]+):(.+):[A-Za-z]+:\d+:\d+$/.exec(key);
  if (!m || !(LAYERS as readonly string[]).includes(m[1]) || m[2] === "cli-override") return null;
  // An inline plugin manifest entry: the manifest's path plus `#<entry index>`.
  const file = m[2].replace(/#\d+$/, "");
  return isAbsolutePath(file) ? file : null;
}

/** True only when the file system says `path` does not exist. */
async function gone(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return false;
  } catch (e) {
    return e instanceof Deno.errors.NotFound;
  }
}

/** One stale entry: the table to remove and why. */
type Stale = { table: string[]; missing: string };

/** The stale tables of the user config's data. */
async function staleTables(data: Record<string, unknown>): Promise<Stale[]> {
  const out: Stale[] = [];
  const hooks = isObject(data.hooks) ? data.hooks : {};
  for (const key of Object.keys(isObject(hooks.state) ? hooks.state : {})) {
    const file = keyFile(key);
    if (file !== null && await gone(file)) out.push({ table: ["hooks", "state", key], missing: file });
  }
  for (const dir of Object.keys(isObject(data.projects) ? data.projects : {})) {
    if (isAbsolutePath(dir) && await gone(dir)) out.push({ table: ["projects", dir], missing: dir });
  }
  return out;
}

/** The kept trusted copies whose hook's file is gone. */
async function staleCopies(home: string): Promise<string[]> {
  const dir = join(home, "hooks", "trusted");
  const out: string[] = [];
  try {
    for await (const e of Deno.readDir(dir)) {
      if (!e.isFile || !e.name.endsWith(".json")) continue;
      let key: unknown;
      try {
        key = JSON.parse(await Deno.readTextFile(join(dir, e.name))).key;
      } catch {
        continue; // not one of ours
      }
      const file = typeof key === "string" ? keyFile(key) : null;
      if (file !== null && await gone(file)) out.push(join(dir, e.name));
    }
  } catch {
    // no copies kept
  }
  return out;
}

/** Runs the command. */
export async function pruneCommand({ options, positionals }: ParsedArgs): Promise<number> {
  if (positionals.length) throw new UsageError(`prune takes no arguments (got ${JSON.stringify(positionals[0])})`);
  const { home } = cliSettings(options);
  const config = join(home, "config.toml");
  const loaded = await loadConfigFile(config, "toml");
  if (!loaded.ok && !loaded.error.missing) {
    throw new UsageError(`${config}: ${loaded.error.warning.message}; nothing pruned`);
  }
  const tables = loaded.ok ? await staleTables(loaded.value.data) : [];
  const copies = await staleCopies(home);
  const out: string[] = [];
  if (tables.length === 0 && copies.length === 0) {
    console.log(terminalLines([`nothing to prune: every hook file and project named in ${config} still exists`]));
    return 0;
  }
  const write = options.yes === true;
  if (tables.length) {
    out.push(
      `${
        write ? "removed" : "would remove"
      } ${(tables.length === 1 ? "1 entry" : `${tables.length} entries`)} from ${config}:`,
    );
    for (const s of tables) out.push(`  [${tomlKeyPath(s.table)}]  ${s.missing} no longer exists`);
  }
  if (copies.length) {
    out.push(
      `${
        write ? "removed" : "would remove"
      } ${(copies.length === 1 ? "1 kept trusted copy" : `${copies.length} kept trusted copies`)} under ${
        join(home, "hooks", "trusted")
      }`,
    );
  }
  if (!write) {
    out.push("dry run: nothing written; mind-hooks prune --yes removes them");
    console.log(terminalLines(out));
    return 0;
  }
  if (tables.length) {
    const res = await removeStateTables(config, tables.map((s) => s.table));
    if (!res.ok) throw new UsageError(`${config}: ${res.error.message}`);
  }
  for (const c of copies) await Deno.remove(c).catch(() => {});
  console.log(terminalLines(out));
  return 0;
}
