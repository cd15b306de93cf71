/**
 * `deno task install`'s launcher survives the Deno it recorded: a launcher written by a Deno that is then
 * removed (npx's cache cleaned) still runs mind-hooks with a `deno` on PATH, else with `npx -y deno@<version>`,
 * and when neither works it prints one line naming `deno task install` — exit 1, or 0 when started as a host's
 * adapter (`dispatch --protocol <host>`) 126, "could not start", which the registered command turns into the host's
 * block (SPEC §6 r4) — never the shell's 127 for a missing file, never a 0 that lets the call through unguarded.
 * Each case runs the real launcher the task wrote, from a copy of the Deno running these tests.
 */
import { assert, assertEquals, assertStringIncludes } from "./helpers/assert.ts";
import { REPO } from "./helpers/cli.ts";
import { launcherScript } from "../scripts/install_launcher.ts";
import { registeredCommand } from "../src/adapter/settings.ts";
import denoJson from "../deno.json" with { type: "json" };

const windows = Deno.build.os === "windows";
const exe = windows ? "deno.exe" : "deno";

type Run = { code: number; stdout: string; stderr: string };

/** A temp dir with `deno task install`'s launcher written by a copy of this Deno, which the test may remove. */
async function installed(): Promise<{ dir: string; launcher: string; recorded: string; done(): Promise<void> }> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "mind-launcher-" }));
  const recorded = `${dir}/recorded/${exe}`;
  await Deno.mkdir(`${dir}/recorded`);
  await Deno.copyFile(Deno.execPath(), recorded);
  if (!windows) await Deno.chmod(recorded, 0o755);
  const out = await new Deno.Command(recorded, {
    args: [
      "run",
      "-q",
      "-P",
      "--no-prompt",
      "--config",
      `${REPO}/deno.json`,
      `${REPO}/scripts/install_launcher.ts`,
      "--bin-dir",
      "bin",
    ],
    // --bin-dir relative to INIT_CWD, as a user typing it in that folder means it.
    env: { INIT_CWD: dir },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
  return {
    dir,
    launcher: `${dir}/bin/${windows ? "mind-hooks.cmd" : "mind-hooks"}`,
    recorded,
    done: () => Deno.remove(dir, { recursive: true }),
  };
}

/** Runs the launcher with `args`, PATH set to exactly `path`. */
async function launch(launcher: string, args: string[], path: string, env: Record<string, string> = {}): Promise<Run> {
  const [cmd, pre] = windows ? ["cmd.exe", ["/d", "/c", launcher]] : [launcher, []];
  const out = await new Deno.Command(cmd, {
    args: [...pre, ...args],
    env: { PATH: path, ...env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(120_000),
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/** A folder holding only links (copies on Windows) to the given programs, for a PATH with nothing else. */
async function toolDir(parent: string, name: string, programs: Record<string, string>): Promise<string> {
  const dir = `${parent}/${name}`;
  await Deno.mkdir(dir);
  for (const [as, target] of Object.entries(programs)) {
    if (windows) await Deno.copyFile(target, `${dir}/${as}`);
    else await Deno.symlink(target, `${dir}/${as}`);
  }
  return dir;
}

async function which(program: string): Promise<string | null> {
  if (windows) return null;
  const out = await new Deno.Command("sh", { args: ["-c", `command -v ${program}`], stdout: "piped" }).output();
  const p = new TextDecoder().decode(out.stdout).trim();
  return out.success && p !== "" ? await Deno.realPath(p) : null;
}

const version = `mind-hooks ${denoJson.version}\n`;
const system = windows ? `${Deno.env.get("SystemRoot") ?? "C:\\Windows"}\\System32` : "";

Deno.test("launcher: the recorded Deno runs it; removed, a deno on PATH does; with neither, one line naming deno task install", async () => {
  const t = await installed();
  try {
    const empty = await toolDir(t.dir, "empty", {});
    const noTools = windows ? `${empty};${system}` : empty;
    const ran = await launch(t.launcher, ["--version"], noTools);
    assertEquals([ran.code, ran.stdout, ran.stderr], [0, version, ""], "with the recorded Deno");

    await Deno.remove(t.recorded);
    const withDeno = await toolDir(t.dir, "with-deno", { [exe]: Deno.execPath() });
    const fromPath = await launch(t.launcher, ["--version"], windows ? `${withDeno};${system}` : withDeno);
    // Not a terminal, so not a word on stderr: a host would show it as the hook's message.
    assertEquals([fromPath.code, fromPath.stdout, fromPath.stderr], [0, version, ""], "with a deno on PATH");

    const none = await launch(t.launcher, ["--version"], noTools);
    assertEquals([none.code, none.stdout], [1, ""], none.stderr);
    assert(none.code !== 127, "never the shell's not-found");
    const line = none.stderr.trimEnd();
    assertEquals(line.split("\n").length, 1, `one line: ${none.stderr}`);
    assertStringIncludes(
      line,
      windows ? "mind-hooks: no Deno to run it: " : `mind-hooks: no Deno to run it: ${t.recorded} is gone`,
    );
    assertStringIncludes(line, "deno task install in ");

    // As a host's adapter the same failure exits 126 (could not start), nothing on stdout: the registered
    // command blocks on it (src/adapter/guard_test.ts) rather than let the call through unguarded (SPEC §6 r4).
    for (const args of [["dispatch", "--protocol", "claude"], ["dispatch", "--protocol=gemini"]]) {
      const adapter = await launch(t.launcher, args, noTools);
      assertEquals([adapter.code, adapter.stdout, adapter.stderr.trimEnd()], [126, "", line], args.join(" "));
    }
    // The command install registers, run as a host runs it: that launcher cannot start mind-hooks, so a tool
    // call is blocked (exit 2) with the launcher's fix and the guard's line on stderr.
    if (!windows) {
      const guarded = registeredCommand("claude", "PreToolUse", t.launcher, "mind-hooks install claude", "posix");
      const blocked = await launch("/bin/sh", ["-c", guarded], noTools);
      assertEquals([blocked.code, blocked.stdout], [2, ""], blocked.stderr);
      assertEquals(blocked.stderr.trimEnd().split("\n"), [
        line,
        `mind-hooks at ${t.launcher} did not start (exit 126): run mind-hooks doctor`,
      ]);
    }
    const mind = await launch(t.launcher, ["dispatch", "--protocol", "mind"], noTools);
    assertEquals(mind.code, 1, "the mind protocol is no host's adapter");
  } finally {
    await t.done();
  }
});

Deno.test({
  name: "launcher: with the recorded Deno removed and no deno on PATH, npx -y deno@<version> runs it",
  ignore: windows,
  async fn() {
    const [node, npx, sh] = [await which("node"), await which("npx"), await which("sh")];
    if (!node || !npx || !sh) {
      console.log("launcher npx case: skipped (needs node, npx and sh on PATH)");
      return;
    }
    const t = await installed();
    try {
      // npx itself needs node and sh; nothing else is on this PATH, and no deno.
      const tools = await toolDir(t.dir, "npx-only", { node, npx, sh });
      const env = { npm_config_prefer_offline: "true", HOME: Deno.env.get("HOME") ?? t.dir };
      const probe = await new Deno.Command(npx, {
        args: ["-y", `deno@${Deno.version.deno}`, "--version"],
        env: { PATH: tools, ...env },
        stdout: "null",
        stderr: "null",
        signal: AbortSignal.timeout(120_000),
      }).output().catch(() => null);
      if (!probe?.success) {
        console.log(`launcher npx case: skipped (npx cannot fetch deno@${Deno.version.deno} here)`);
        return;
      }
      await Deno.remove(t.recorded);
      const ran = await launch(t.launcher, ["--version"], tools, env);
      assertEquals([ran.code, ran.stdout, ran.stderr], [0, version, ""]);

      // npx there but failing (offline, empty cache): the one line, naming the task through npx.
      const failing = await launch(t.launcher, ["--version"], tools, {
        ...env,
        npm_config_offline: "true",
        npm_config_cache: `${t.dir}/empty-npm-cache`,
      });
      assertEquals([failing.code, failing.stdout], [1, ""]);
      assertEquals(
        failing.stderr,
        `mind-hooks: no Deno to run it: ${t.recorded} is gone, no deno on PATH, and npx -y deno@${Deno.version.deno} ` +
          `failed (offline?); run npx -y deno@${Deno.version.deno} task install in ${REPO}\n`,
      );
    } finally {
      await t.done();
    }
  },
});

Deno.test({
  name: "launcher: a checkout that moved is named in one line, never a Deno error about a missing main.ts",
  ignore: windows,
  async fn() {
    const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "mind-launcher-moved-" }));
    try {
      const launcher = `${dir}/mind-hooks`;
      await Deno.writeTextFile(launcher, launcherScript("posix", Deno.execPath(), `${dir}/gone`, Deno.version.deno));
      await Deno.chmod(launcher, 0o755);
      const r = await launch(launcher, ["list"], "");
      assertEquals(
        [r.code, r.stdout, r.stderr],
        [
          1,
          "",
          `mind-hooks: the checkout ${dir}/gone is gone (moved or deleted); run deno task install in its new place\n`,
        ],
      );
      const adapter = await launch(launcher, ["dispatch", "--protocol", "copilot", "--event", "permissionRequest"], "");
      assertEquals([adapter.code, adapter.stdout], [126, ""]);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("launcher: the Windows launcher has the same fallbacks and the same one-line fix", () => {
  const text = launcherScript("windows", "C:\\deno\\deno.exe", "C:/src/mind-hooks", "2.9.6");
  assert(text.includes("\r\n") && !/[^\r]\n/.test(text), "CRLF line endings");
  for (
    const part of [
      `set "MIND_HOOKS_DENO=C:\\deno\\deno.exe"`,
      `'where deno.exe 2^>nul'`,
      `'npx -y deno@2.9.6 eval --no-config -q "console.log(Deno.execPath())" 2^>nul'`,
      "run deno task install in %MIND_HOOKS_CHECKOUT% ^(npx -y deno@2.9.6 task install^) 1>&2",
      `"%MIND_HOOKS_DENO%" run -q -P --no-prompt --config "%MIND_HOOKS_CHECKOUT%\\deno.json" ` +
      `"%MIND_HOOKS_CHECKOUT%\\main.ts" %*`,
    ]
  ) assertStringIncludes(text, part);
});
