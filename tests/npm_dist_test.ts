/**
 * The npm distribution, end to end and offline: `deno task npm:build` on stand-in binaries (compiling needs
 * `denort`, which these machines cannot download), `npm pack` of every package, an install of the packed
 * tarballs into a temp prefix with an empty cache and `--offline`, then the installed `mind-hooks` and `npx`
 * print the stand-in's `--version`. Also: the manifests (os/cpu/libc, optionalDependencies), and the launcher's
 * messages when the platform package is missing.
 */
import { assert, assertEquals, assertStringIncludes } from "./helpers/assert.ts";
import { REPO } from "./helpers/cli.ts";
import { binaryName, npmPlatformPackage, RELEASE, TARGETS, VERSION } from "../scripts/release.ts";
import { launcherManifest, platformManifest } from "../scripts/npm_build.ts";

const POSIX = Deno.build.os !== "windows";
const HOST = TARGETS.find((t) => t.os === Deno.build.os && t.cpu === (Deno.build.arch === "aarch64" ? "arm64" : "x64"));

async function run(cmd: string, args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}) {
  const out = await new Deno.Command(cmd, { args, cwd: opts.cwd, env: opts.env, stdout: "piped", stderr: "piped" })
    .output();
  return { code: out.code, stdout: new TextDecoder().decode(out.stdout), stderr: new TextDecoder().decode(out.stderr) };
}

async function hasNpm(): Promise<boolean> {
  try {
    return (await run("npm", ["--version"])).code === 0;
  } catch {
    return false;
  }
}

/** One stand-in binary per target: a shell script that prints the version and its arguments, exits 3 on "fail". */
async function standIns(dir: string): Promise<void> {
  for (const t of TARGETS) {
    await Deno.mkdir(`${dir}/${t.triple}`, { recursive: true });
    const file = `${dir}/${t.triple}/${binaryName(t)}`;
    await Deno.writeTextFile(
      file,
      `#!/bin/sh\n[ "$1" = fail ] && exit 3\necho "mind-hooks ${VERSION} (${t.triple}) $*"\n`,
    );
    await Deno.chmod(file, 0o755);
  }
}

Deno.test("npm manifests: one optional dependency per target, each restricted by os/cpu (and glibc on Linux)", () => {
  const launcher = launcherManifest(RELEASE, "1.2.3");
  assertEquals(launcher.name, RELEASE.npmPackage);
  assertEquals(launcher.bin, { "mind-hooks": "bin/mind-hooks.js" });
  assertEquals(
    launcher.optionalDependencies,
    Object.fromEntries(TARGETS.map((t) => [`${RELEASE.npmPackage}-${t.os}-${t.cpu}`, "1.2.3"])),
  );
  assertEquals(
    TARGETS.map((t) => {
      const m = platformManifest(RELEASE, "1.2.3", t);
      return [m.name, m.version, m.os, m.cpu, m.libc ?? null];
    }),
    [
      [`${RELEASE.npmPackage}-linux-x64`, "1.2.3", ["linux"], ["x64"], ["glibc"]],
      [`${RELEASE.npmPackage}-linux-arm64`, "1.2.3", ["linux"], ["arm64"], ["glibc"]],
      [`${RELEASE.npmPackage}-darwin-x64`, "1.2.3", ["darwin"], ["x64"], null],
      [`${RELEASE.npmPackage}-darwin-arm64`, "1.2.3", ["darwin"], ["arm64"], null],
      [`${RELEASE.npmPackage}-win32-x64`, "1.2.3", ["win32"], ["x64"], null],
    ],
  );
  // Provenance: npm checks that a package built by the release workflow names the repository it came from.
  assertEquals(launcher.repository, { type: "git", url: `git+https://github.com/${RELEASE.repository}.git` });
});

Deno.test({
  name: "npm: deno task npm:build, npm pack, an offline install into a temp prefix, then mind-hooks --version",
  ignore: !POSIX || HOST === undefined,
  async fn() {
    if (!await hasNpm()) {
      console.log("npm dist: skipped (no npm here)");
      return;
    }
    const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "mind-hooks-npm-" }));
    try {
      await standIns(`${root}/binaries`);
      // The task exactly as release.yml calls it, from another directory with relative paths.
      const build = await run(Deno.execPath(), [
        "task",
        "-q",
        "--config",
        `${REPO}/deno.json`,
        "npm:build",
        "--binaries",
        "binaries",
        "--out",
        "npm",
      ], { cwd: root, env: { INIT_CWD: root } });
      assertEquals(build.code, 0, build.stderr);
      const dirs = build.stdout.trim().split("\n");
      assertEquals(dirs, [...TARGETS.map((t) => `${root}/npm/mind-hooks-${t.os}-${t.cpu}`), `${root}/npm/mind-hooks`]);
      const again = await run(Deno.execPath(), [
        "task",
        "-q",
        "--config",
        `${REPO}/deno.json`,
        "npm:build",
        "--binaries",
        `${root}/binaries`,
        "--out",
        `${root}/npm`,
      ]);
      assertEquals([again.code, again.stderr.trim()], [1, `npm:build: --out ${root}/npm is not empty`]);

      await Deno.mkdir(`${root}/packs`);
      const tarballs: Record<string, string> = {};
      for (const d of dirs) {
        const p = await run("npm", ["pack", "--silent", "--pack-destination", `${root}/packs`, d]);
        assertEquals(p.code, 0, p.stderr);
        const manifest = JSON.parse(await Deno.readTextFile(`${d}/package.json`));
        tarballs[manifest.name] = `${root}/packs/${p.stdout.trim().split("\n").at(-1)}`;
      }
      const listing = await run("tar", ["-tzvf", tarballs[npmPlatformPackage(RELEASE, HOST!)]]);
      assert(/^-rwxr-xr-x .* package\/bin\/mind-hooks$/m.test(listing.stdout), listing.stdout);

      // npm resolves the launcher's optional dependencies: the host's from its tarball, the other four are
      // skipped (wrong os/cpu, and not in the empty cache: --offline means no registry is asked).
      const npmEnv = { npm_config_cache: `${root}/cache`, npm_config_update_notifier: "false" };
      const install = await run("npm", [
        "install",
        "--offline",
        "--no-audit",
        "--no-fund",
        "--prefix",
        `${root}/prefix`,
        tarballs[RELEASE.npmPackage],
        tarballs[npmPlatformPackage(RELEASE, HOST!)],
      ], { env: npmEnv });
      assertEquals(install.code, 0, install.stderr);
      const bin = `${root}/prefix/node_modules/.bin/mind-hooks`;
      const version = await run(bin, ["--version"]);
      assertEquals([version.code, version.stdout], [0, `mind-hooks ${VERSION} (${HOST!.triple}) --version\n`]);
      const npx = await run("npx", ["--offline", "mind-hooks", "--version"], { cwd: `${root}/prefix`, env: npmEnv });
      assertEquals([npx.code, npx.stdout], [0, `mind-hooks ${VERSION} (${HOST!.triple}) --version\n`]);
      // Arguments and the exit status pass through the launcher unchanged.
      assertEquals((await run(bin, ["fail"])).code, 3);
      assertEquals((await run(bin, ["a b", "c"])).stdout, `mind-hooks ${VERSION} (${HOST!.triple}) a b c\n`);

      // A global install the way users do it (npm install -g), into a temp prefix.
      const global = await run("npm", [
        "install",
        "-g",
        "--offline",
        "--no-audit",
        "--no-fund",
        "--prefix",
        `${root}/global`,
        tarballs[RELEASE.npmPackage],
        tarballs[npmPlatformPackage(RELEASE, HOST!)],
      ], { env: npmEnv });
      assertEquals(global.code, 0, global.stderr);
      assertEquals((await run(`${root}/global/bin/mind-hooks`, ["--version"])).code, 0);

      // Without the platform package the launcher says what is wrong, in one line, exit 1.
      const alone = await run("npm", [
        "install",
        "--offline",
        "--no-audit",
        "--no-fund",
        "--prefix",
        `${root}/alone`,
        tarballs[RELEASE.npmPackage],
      ], { env: npmEnv });
      assertEquals(alone.code, 0, alone.stderr);
      const missing = await run(`${root}/alone/node_modules/.bin/mind-hooks`, ["--version"]);
      assertEquals(missing.code, 1);
      assertStringIncludes(missing.stderr, `mind-hooks: ${npmPlatformPackage(RELEASE, HOST!)} is not installed`);
      assertEquals(missing.stderr.trim().split("\n").length, 1, missing.stderr);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});

Deno.test({ name: "npm:build refuses a missing binary, naming it", ignore: !POSIX }, async () => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "mind-hooks-npm-" }));
  try {
    await standIns(`${root}/binaries`);
    await Deno.remove(`${root}/binaries/aarch64-apple-darwin`, { recursive: true });
    const r = await run(Deno.execPath(), [
      "task",
      "-q",
      "--config",
      `${REPO}/deno.json`,
      "npm:build",
      "--binaries",
      `${root}/binaries`,
      "--out",
      `${root}/npm`,
    ]);
    assertEquals([r.code, r.stderr.trim()], [
      1,
      `npm:build: no binary at ${root}/binaries/aarch64-apple-darwin/mind-hooks`,
    ]);
    const usage = await run(Deno.execPath(), ["task", "-q", "--config", `${REPO}/deno.json`, "npm:build"]);
    assertEquals([usage.code, usage.stderr.trim()], [1, "npm:build: --binaries DIR is required (see --help)"]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
