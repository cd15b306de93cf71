/**
 * `deno task install [--bin-dir DIR] [--force] [--uninstall]`: puts a `mind-hooks` command on PATH for this
 * source checkout. It writes a small launcher (a POSIX sh script; `mind-hooks.cmd` on Windows) into
 * `~/.local/bin` that runs this checkout's `main.ts` with the checkout's `deno.json` and its declared permission
 * set (`-P --no-prompt`), from whatever directory it is started in. It runs the Deno that ran the task; when that
 * one is gone (npx's cache cleaned), a `deno` on PATH, else `npx -y deno@<the same version>`; when none works, one
 * line says to run `deno task install` again (see {@link launcherScript}).
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
It runs this checkout's main.ts with the permission set declared in deno.json (-P)
and --no-prompt, with the Deno that runs this task (when that one is gone: a deno
on PATH, else npx -y deno@<its version>). Run it again after moving the checkout.
  --bin-dir DIR  where to write the launcher
  --force        replace a mind-hooks in DIR that this task did not write
  --uninstall    remove the launcher (only one this task wrote)`;

const sh = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

/**
 * The launcher's text for a platform. It finds Deno the way a user expects: the one that ran `deno task install`
 * (`deno`, recorded here), else a `deno` on PATH, else `npx -y deno@<version>` (the version recorded), and says in
 * one line naming `deno task install` when none works, or when the checkout is gone. It never leaves a shell to
 * report "not found": it exits 1, or 126 ("cannot start") when it was started as a host's adapter
 * (`dispatch --protocol <host>`): the command `install` registered reads that as mind-hooks not starting and
 * fails closed in the host's own form (src/adapter/guard.ts, SPEC §6 r4) — a guard that cannot run never lets
 * the call through in silence.
 */
export function launcherScript(
  os: "windows" | "posix",
  deno: string,
  checkout: string,
  version: string,
): string {
  const fix = `npx -y deno@${version} task install`;
  if (os === "windows") {
    return [
      "@echo off",
      `rem mind-hooks launcher for the source checkout ${checkout}, ${MARKER}.`,
      "rem It runs the checkout's main.ts with the permission set declared in its deno.json (-P), never prompting,",
      `rem with the Deno that ran the task, else deno.exe on PATH, else npx -y deno@${version}.`,
      "setlocal",
      `set "MIND_HOOKS_CHECKOUT=${checkout}"`,
      `set "MIND_HOOKS_DENO=${deno}"`,
      `if not exist "%MIND_HOOKS_CHECKOUT%\\main.ts" (`,
      `  echo mind-hooks: the checkout %MIND_HOOKS_CHECKOUT% is gone ^(moved or deleted^); run deno task install in its new place 1>&2`,
      "  goto fail",
      ")",
      'if exist "%MIND_HOOKS_DENO%" goto run',
      'set "MIND_HOOKS_DENO="',
      'for /f "delims=" %%D in (\'where deno.exe 2^>nul\') do if not defined MIND_HOOKS_DENO set "MIND_HOOKS_DENO=%%D"',
      "if defined MIND_HOOKS_DENO goto run",
      `for /f "delims=" %%D in ('npx -y deno@${version} eval --no-config -q "console.log(Deno.execPath())" 2^>nul') do if not defined MIND_HOOKS_DENO set "MIND_HOOKS_DENO=%%D"`,
      "if defined MIND_HOOKS_DENO goto run",
      `echo mind-hooks: no Deno to run it: ${deno} is gone, no deno.exe on PATH, and npx -y deno@${version} failed or is missing; run deno task install in %MIND_HOOKS_CHECKOUT% ^(${fix}^) 1>&2`,
      "goto fail",
      ":run",
      `"%MIND_HOOKS_DENO%" run -q -P --no-prompt --config "%MIND_HOOKS_CHECKOUT%\\deno.json" "%MIND_HOOKS_CHECKOUT%\\main.ts" %*`,
      "exit /b %ERRORLEVEL%",
      ":fail",
      "rem As a host's adapter (dispatch --protocol claude|codex|gemini|copilot): 126, mind-hooks could not start.",
      'echo %* | findstr /r /c:"--protocol[= ][cg]" >nul && exit /b 126',
      "exit /b 1",
      "",
    ].join("\r\n");
  }
  return [
    "#!/bin/sh",
    `# mind-hooks launcher for the source checkout ${checkout}, ${MARKER}.`,
    "# It runs the checkout's main.ts with the permission set declared in its deno.json (-P), never prompting,",
    `# with the Deno that ran the task, else a deno on PATH, else npx -y deno@${version}.`,
    `checkout=${sh(checkout)}`,
    `deno=${sh(deno)}`,
    "# Started as a host's adapter (dispatch --protocol claude|codex|gemini|copilot), a failure exits 126",
    "# (mind-hooks could not start): the command install registered then blocks in the host's own form.",
    "adapter=no prev=",
    'for a in "$@"; do',
    '  case "$prev:$a" in',
    "    --protocol:mind | *:--protocol=mind) ;;",
    "    --protocol:* | *:--protocol=*) adapter=yes ;;",
    "  esac",
    "  prev=$a",
    "done",
    "fail() {",
    `  printf 'mind-hooks: %s; run %s\\n' "$1" "$2" >&2`,
    '  [ "$adapter" = yes ] && exit 126',
    "  exit 1",
    "}",
    'if [ ! -f "$checkout/main.ts" ]; then',
    '  fail "the checkout $checkout is gone (moved or deleted)" "deno task install in its new place"',
    "fi",
    'if [ ! -x "$deno" ]; then',
    "  found=$(command -v deno 2>/dev/null) || found=",
    '  if [ -z "$found" ]; then',
    "    command -v npx >/dev/null 2>&1 ||",
    `      fail "no Deno to run it: $deno is gone, and neither deno nor npx is on PATH" "deno task install in $checkout once one of them is"`,
    `    found=$(npx -y deno@${version} eval --no-config -q 'console.log(Deno.execPath())' 2>/dev/null) || found=`,
    '    [ -n "$found" ] && [ -x "$found" ] ||',
    `      fail "no Deno to run it: $deno is gone, no deno on PATH, and npx -y deno@${version} failed (offline?)" "${fix} in $checkout"`,
    "  fi",
    "  # Only a person at a terminal is told; a host reads stderr as the hook's message.",
    `  [ -t 2 ] && printf 'mind-hooks: %s is gone; using %s (deno task install in %s records it again)\\n' "$deno" "$found" "$checkout" >&2`,
    "  deno=$found",
    "fi",
    'exec "$deno" run -q -P --no-prompt --config "$checkout/deno.json" "$checkout/main.ts" "$@"',
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
      await Deno.writeTextFile(
        file,
        launcherScript(windows ? "windows" : "posix", Deno.execPath(), checkout, Deno.version.deno),
      );
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
