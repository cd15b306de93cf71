/**
 * What a project defines for its tools to run (SPEC §3.5 r3): `npm run` / `npm test` / `pnpm` / `yarn` /
 * `bun run` read the nearest package.json's script (and its `pre`/`post` scripts), `deno task` the
 * nearest deno.json(c)'s task, as commands of their own run in that file's folder; the file itself is
 * pinned (a script's text lives there).
 * @module
 */
import { type Command, field, type Sink } from "./reader_types.ts";
import type { Field } from "./shell_reader.ts";

/** `npm run NAME`, `npm test`, `pnpm NAME`, `yarn NAME`, `bun run NAME`: the package.json script it runs. */
export function packageScript(name: string, args: Field[], cmd: Command, s: Sink): boolean {
  if (name !== "npm" && name !== "pnpm" && name !== "yarn") return false;
  const words = args.filter((a) => !a.text.startsWith("-"));
  const sub = words[0]?.text;
  if (sub === undefined) return true;
  if (/^(?:install|i|ci|add|update|up)$/.test(sub)) {
    s.markFetch(`${name} ${sub}`);
    return true;
  }
  let script: Field | undefined;
  if (/^(?:run|run-script|rum|urn)$/.test(sub)) script = words[1];
  else if (/^(?:test|t|tst|start|stop|restart)$/.test(sub)) script = field(sub === "t" || sub === "tst" ? "test" : sub);
  else if (name !== "npm" && !/^(?:exec|dlx|create|init|publish|pack|why|list|ls|outdated|config)$/.test(sub)) {
    script = words[0];
  } else return true;
  if (script === undefined) return true;
  runPackageScript(script, cmd, s);
  return true;
}

/** Reads the script `script` of the nearest package.json as a command of its own (pre- and post- scripts too). */
export function runPackageScript(script: Field, cmd: Command, s: Sink): void {
  if (script.unknown !== null) {
    s.markUnpinnable(script.unknown);
    return;
  }
  if (!("list" in cmd.dirs)) {
    s.markUnpinnable(cmd.dirs.unknown);
    return;
  }
  for (const start of new Set([...cmd.dirs.list, s.root])) {
    for (let dir = start; dir === s.root || dir.startsWith(s.root + "/"); dir = dir.slice(0, dir.lastIndexOf("/"))) {
      // `.npmrc` changes how scripts run (`script-shell`, `node-options`): pinned, a later one `added`.
      s.relative([".npmrc"], [dir]);
      const text = s.readText(`${dir}/package.json`);
      if (text === null) continue;
      s.relative(["package.json"], [dir]);
      let scripts: Record<string, unknown> = {};
      try {
        const pkg = JSON.parse(text);
        if (pkg && typeof pkg.scripts === "object" && pkg.scripts !== null) scripts = pkg.scripts;
      } catch {
        s.markUnpinnable(`${dir.slice(s.root.length + 1) || "."}/package.json (not JSON)`);
        break;
      }
      for (const key of [`pre${script.text}`, script.text, `post${script.text}`]) {
        const body = Object.hasOwn(scripts, key) ? scripts[key] : undefined;
        // npm runs a script with `sh -c`, in the package's folder, its node_modules/.bin first on PATH.
        if (typeof body === "string") s.nested(body, { dirs: { list: [dir] }, pathPrefix: `${dir}/node_modules/.bin` });
      }
      break;
    }
  }
}

/** `deno task NAME`: the task of the nearest deno.json(c), read as a command. */
export function denoTask(name: Field, cmd: Command, s: Sink): void {
  if (name.unknown !== null) return s.markUnpinnable(name.unknown);
  if (!("list" in cmd.dirs)) return s.markUnpinnable(cmd.dirs.unknown);
  for (const start of new Set([...cmd.dirs.list, s.root])) {
    for (let dir = start; dir === s.root || dir.startsWith(s.root + "/"); dir = dir.slice(0, dir.lastIndexOf("/"))) {
      const file = ["deno.json", "deno.jsonc"].find((f) => s.readText(`${dir}/${f}`) !== null);
      if (file === undefined) continue;
      s.relative([file], [dir]);
      let task: unknown;
      try {
        task = JSON.parse(stripJsonComments(s.readText(`${dir}/${file}`)!))?.tasks?.[name.text];
      } catch {
        s.markUnpinnable(`deno task ${name.text} (${file} could not be read)`);
        break;
      }
      const text = typeof task === "string" ? task : (task as { command?: unknown } | undefined)?.command;
      if (typeof text === "string") s.nested(text, { dirs: { list: [dir] } });
      break;
    }
  }
}

/** JSONC to JSON: comments and trailing commas removed (outside strings). */
function stripJsonComments(text: string): string {
  return text.replace(/("(?:\\.|[^"\\])*")|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (_m, str) => str ?? "")
    .replace(/("(?:\\.|[^"\\])*")|,(\s*[}\]])/g, (_m, str, close) => str ?? close);
}
