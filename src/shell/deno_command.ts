/**
 * Deno for the command reader (SPEC §3.5 r3, r4): `deno run x`, `deno x`, `deno task name`, `deno test`,
 * the subcommands whose arguments are data; its configuration (`--config`, `--import-map`, the nearest
 * `deno.json(c)`) steers what loads, and a script fetched by URL is unpinnable.
 * @module
 */
import { nodeScript, parse, requireFile, SPECS, TS_SUFFIXES } from "./interpreters.ts";
import { dataWord } from "./programs.ts";
import type { Command, Sink } from "./reader_types.ts";
import { denoTask } from "./project_tools.ts";
import { construct } from "./shell_expand.ts";
import type { Field } from "./shell_reader.ts";

/** Deno's subcommands whose arguments are data (or files it does not run). */
const DENO_DATA = new Set([
  "fmt",
  "lint",
  "check",
  "doc",
  "info",
  "types",
  "upgrade",
  "init",
  "completions",
  "lsp",
  "publish",
  "clean",
  "coverage",
  "cache",
  "install",
  "uninstall",
  "add",
  "remove",
  "outdated",
  "compile",
  "jupyter",
]);

/** `deno run x`, `deno x`, `deno task name`, `deno eval …`, `deno test`. */
export function denoCommand(args: Field[], cmd: Command, s: Sink): boolean {
  const sub = args[0]?.text;
  if (sub === undefined || sub === "eval" || sub === "repl" || sub === "x") return true;
  if (sub === "task") {
    const name = args.slice(1).find((a) => !a.text.startsWith("-"));
    if (name) denoTask(name, cmd, s);
    return true;
  }
  if (sub === "test" || sub === "bench") {
    const files = args.slice(1).filter((a) => !a.text.startsWith("-"));
    if (files.length === 0) s.markUnpinnable(`deno ${sub} (runs the tests it finds)`);
    for (const f of files) s.path(f, "run", cmd.dirs);
    return true;
  }
  if (DENO_DATA.has(sub)) {
    for (const a of args.slice(1)) dataWord(a, cmd, s);
    return true;
  }
  const p = parse(sub === "run" || sub === "serve" ? args.slice(1) : args, SPECS.deno);
  if (p.script !== null && /^(?:https?|npm|jsr):/.test(p.script.text)) {
    s.markUnpinnable(`deno ${construct(p.script.text)} (fetches the code it runs)`);
  }
  // Its configuration and import map steer what loads (SPEC §3.5 r4): the ones named, and the nearest deno.json(c).
  for (let i = 0; i < args.length; i++) {
    const w = args[i].text;
    if (/^(?:-c|--config|--import-map)$/.test(w) && args[i + 1]) s.path(args[i + 1], "run", cmd.dirs);
    else if (/^--(?:config|import-map)=/.test(w)) {
      s.path({ ...args[i], text: w.slice(w.indexOf("=") + 1) }, "run", cmd.dirs);
    }
  }
  if ("list" in cmd.dirs) {
    for (const start of new Set([...cmd.dirs.list, s.root])) {
      for (let d = start; d === s.root || d.startsWith(s.root + "/"); d = d.slice(0, d.lastIndexOf("/"))) {
        s.relative(["deno.json", "deno.jsonc", "import_map.json"], [d]);
      }
    }
  }
  for (const r of p.requires) requireFile("deno", r, cmd, s);
  if (p.script !== null) nodeScript(p.script, cmd, s, TS_SUFFIXES);
  for (const a of p.rest) dataWord(a, cmd, s);
  return true;
}
