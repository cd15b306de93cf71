/**
 * `deno task install [--bin-dir DIR] [--force] [--uninstall]`: puts a `mind-hooks` command on PATH for this
 * source checkout. It writes a small launcher (a POSIX sh script; `mind-hooks.cmd` on Windows) into
 * `~/.local/bin` that runs this checkout's `main.ts` with the Deno that ran the task, the checkout's
 * `deno.json` and its declared permission set (`-P --no-prompt`), from whatever directory it is started in.
 *
 * Nothing of the machine is stored in the repository: the launcher is generated here, at install time.
 * An existing `mind-hooks` there that this task did not write (a release binary, say) is left alone unless
 * `--force`.
 * @module
 */
import { fromInvocation, runScript, UsageError } from "./cli.ts";
import { join } from "../src/util/paths.ts";

const MARKER = "written by `deno task install`";

const HELP = `deno task install [--bin-dir DIR] [--force] [--uninstall]

Writes a mind-hooks launcher for this checkout into DIR (default: ~/.local/bin).
It runs this checkout's main.ts with the Deno that runs this task, the permission
set declared in deno.json (-P) and --no-prompt. Run it again after moving the
checkout or that Deno.
  --bin-dir DIR  where to write the launcher
  --force        replace a mind-hooks in DIR that this task did not write
  --uninstall    remove the launcher (only one this task wrote)`;

const sh = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

/** The launcher's text for a platform: `deno run … main.ts "$@"` with every path fixed at install time. */
export function launcherScript(
  os: "windows" | "posix",
  deno: string,
  checkout: string,
): string {
  const config = join(checkout, "deno.json");
  const main = join(checkout, "main.ts");
  if (os === "windows") {
    return [
      "@echo off",
      `rem mind-hooks launcher for the source checkout ${checkout}, ${MARKER}.`,
      "rem It runs the checkout's main.ts with the permission set declared in its deno.json.",
      `"${deno}" run -q -P --no-prompt --config "${config}" "${main}" %*`,
      "exit /b %ERRORLEVEL%",
      "",
    ].join("\r\n");
  }
  return [
    "#!/bin/sh",
    `# mind-hooks launcher for the source checkout ${checkout}, ${MARKER}.`,
    "# It runs the checkout's main.ts with the permission set declared in its deno.json (-P), never",
    "# prompting. Run `deno task install` in the checkout again after moving it or this Deno.",
    `exec ${sh(deno)} run -q -P --no-prompt --config ${sh(config)} ${sh(main)} "$@"`,
    "",
  ].join("\n");
}

/** True when `dir` is one of the entries of a PATH value. */
export function onPath(dir: string, pathValue: string, windows: boolean): boolean {
  const norm = (p: string) => {
    const t = p.replace(/[\\/]+$/, "");
    return windows ? t.toLowerCase().replaceAll("/", "\\") : t;
  };
  return pathValue.split(windows ? ";" : ":").some((p) => p !== "" && norm(p) === norm(dir));
}

/** The first 4 KiB of `path` as text (enough for the marker; a release binary is ~100 MB), or null if absent. */
async function headIfExists(path: string): Promise<string | null> {
  let f: Deno.FsFile;
  try {
    f = await Deno.open(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return null;
    throw e;
  }
  try {
    const buf = new Uint8Array(4096);
    const n = await f.read(buf);
    return new TextDecoder().decode(buf.subarray(0, n ?? 0));
  } finally {
    f.close();
  }
}

if (import.meta.main) {
  await runScript(
    "install",
    { "bin-dir": { type: "string" }, force: { type: "boolean" }, uninstall: { type: "boolean" } },
    HELP,
    async (o, rest) => {
      if (rest.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(rest[0])} (see --help)`);
      const windows = Deno.build.os === "windows";
      const home = Deno.env.get(windows ? "USERPROFILE" : "HOME") ?? Deno.env.get("HOME");
      if (typeof o["bin-dir"] !== "string" && !home) throw new UsageError("HOME is not set: pass --bin-dir DIR");
      const binDir = typeof o["bin-dir"] === "string" ? fromInvocation(o["bin-dir"]) : join(home!, ".local", "bin");
      const file = join(binDir, windows ? "mind-hooks.cmd" : "mind-hooks");
      const existing = await headIfExists(file);
      const ours = existing !== null && existing.includes(MARKER);
      if (o.uninstall) {
        if (existing === null) console.log(`${file}: not there; nothing to remove`);
        else if (!ours) throw new UsageError(`${file} was not written by deno task install; left as it is`);
        else {
          await Deno.remove(file);
          console.log(`removed ${file}`);
        }
        return 0;
      }
      if (existing !== null && !ours && !o.force) {
        throw new UsageError(
          `${file} exists and was not written by deno task install (a release binary?): remove it or pass --force`,
        );
      }
      const checkout = decodeURIComponent(new URL("../", import.meta.url).pathname).replace(/\/$/, "")
        .replace(/^\/([A-Za-z]:)/, "$1");
      await Deno.mkdir(binDir, { recursive: true });
      await Deno.writeTextFile(file, launcherScript(windows ? "windows" : "posix", Deno.execPath(), checkout));
      if (!windows) await Deno.chmod(file, 0o755);
      console.log(`wrote ${file}: runs ${checkout}/main.ts with ${Deno.execPath()}`);
      if (!onPath(binDir, Deno.env.get("PATH") ?? "", windows)) {
        console.log(`${binDir} is not on your PATH; add it for this shell (and to your shell's profile):`);
        console.log(
          windows
            ? `  $env:Path = "${binDir};$env:Path"`
            : `  export PATH="${binDir === join(home ?? "", ".local", "bin") ? "$HOME/.local/bin" : binDir}:$PATH"`,
        );
      }
      console.log(`then: mind-hooks --version`);
      return 0;
    },
  );
}
