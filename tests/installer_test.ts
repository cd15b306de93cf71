/**
 * install.sh against a fake release served from 127.0.0.1 by a file server this test starts: the latest and a
 * chosen version, the URLs it fetches, a corrupted archive and a SHA256SUMS without the archive (both refused,
 * nothing installed, an older binary left as it was), a missing release, platform detection through a stand-in
 * `uname`, `curl | sh` piping, wget instead of curl, and the POSIX shells it must run under (dash, bash --posix).
 *
 * install.ps1 cannot run here (no PowerShell on these machines): its test checks the same contract in its text.
 */
import { assert, assertEquals, assertStringIncludes } from "./helpers/assert.ts";
import { REPO } from "./helpers/cli.ts";
import { archiveName, RELEASE, TARGETS } from "../scripts/release.ts";

const POSIX = Deno.build.os !== "windows";
const INSTALL_SH = `${REPO}/install.sh`;

async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function run(
  cmd: string,
  args: string[],
  opts: { cwd?: string; env?: Record<string, string>; stdin?: string } = {},
) {
  const child = new Deno.Command(cmd, {
    args,
    cwd: opts.cwd,
    env: opts.env,
    clearEnv: opts.env !== undefined,
    stdin: opts.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (opts.stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(opts.stdin));
    await w.close();
  }
  const out = await child.output();
  return { code: out.code, stdout: new TextDecoder().decode(out.stdout), stderr: new TextDecoder().decode(out.stderr) };
}

async function which(cmd: string): Promise<string | null> {
  try {
    const r = await run("sh", ["-c", `command -v ${cmd}`]);
    return r.code === 0 ? r.stdout.trim() : null;
  } catch {
    return null; // no sh at all (Windows without Git's)
  }
}

/** A release folder as the installer expects one: `v<version>/<archive>` + `v<version>/SHA256SUMS`. */
type FakeRelease = { root: string; dir: string; server: Deno.HttpServer; url: string; requests: string[] };

/** Writes one version's archives (stand-in binaries printing `mind-hooks <version>`) and its SHA256SUMS. */
async function publish(
  root: string,
  version: string,
  opts: { corrupt?: boolean; omitFromSums?: boolean; nested?: boolean } = {},
) {
  const dir = `${root}/v${version}`;
  await Deno.mkdir(dir, { recursive: true });
  const lines: string[] = [];
  for (const t of TARGETS.filter((t) => t.os !== "win32")) {
    const stage = await Deno.makeTempDir({ prefix: "mind-hooks-stage-" });
    const inner = opts.nested ? `${stage}/mind-hooks-${version}` : stage;
    await Deno.mkdir(inner, { recursive: true });
    await Deno.writeTextFile(`${inner}/mind-hooks`, `#!/bin/sh\necho "mind-hooks ${version} (${t.triple})"\n`);
    await Deno.chmod(`${inner}/mind-hooks`, 0o755);
    await Deno.copyFile(`${REPO}/LICENSE`, `${inner}/LICENSE`);
    await Deno.writeTextFile(`${inner}/README.md`, "# mind-hooks\n");
    const name = archiveName(version, t);
    const tar = await run("tar", ["-czf", `${dir}/${name}`, "-C", stage, "."]);
    assertEquals(tar.code, 0, tar.stderr);
    await Deno.remove(stage, { recursive: true });
    const bytes = await Deno.readFile(`${dir}/${name}`);
    lines.push(`${await sha256Hex(bytes)}  ${name}`);
    if (opts.corrupt) {
      // One byte flipped after the digest was taken: what a damaged or substituted download looks like.
      bytes[bytes.length - 10] ^= 0xff;
      await Deno.writeFile(`${dir}/${name}`, bytes);
    }
  }
  const sums = (opts.omitFromSums ? lines.filter((l) => !l.includes("x86_64-unknown-linux-gnu")) : lines).join("\n");
  await Deno.writeTextFile(`${dir}/SHA256SUMS`, sums + "\n");
  return sums;
}

async function fakeRelease(): Promise<FakeRelease> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "mind-hooks-release-" }));
  const dir = `${root}/releases`;
  await publish(dir, "0.1.0");
  const latest = await publish(dir, "0.2.0");
  await Deno.mkdir(`${dir}/latest`, { recursive: true });
  await Deno.writeTextFile(`${dir}/latest/SHA256SUMS`, latest + "\n");
  await publish(dir, "0.3.0", { corrupt: true });
  await publish(dir, "0.4.0", { omitFromSums: true });
  await publish(dir, "0.5.0", { nested: true });
  const requests: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const path = decodeURIComponent(new URL(req.url).pathname);
    requests.push(path);
    if (path.includes("..")) return new Response("bad path", { status: 400 });
    try {
      return new Response(await Deno.readFile(`${root}${path}`));
    } catch {
      return new Response("not found", { status: 404 });
    }
  });
  return { root, dir, server, url: `http://127.0.0.1:${server.addr.port}/releases`, requests };
}

/** A bin folder holding a stand-in `uname` that reports `os` and `arch`. */
async function fakeUname(root: string, os: string, arch: string): Promise<string> {
  const bin = `${root}/uname-${os}-${arch}`;
  await Deno.mkdir(bin, { recursive: true });
  await Deno.writeTextFile(`${bin}/uname`, `#!/bin/sh\ncase "$1" in -s) echo ${os} ;; -m) echo ${arch} ;; esac\n`);
  await Deno.chmod(`${bin}/uname`, 0o755);
  return bin;
}

function env(home: string, path: string, extra: Record<string, string> = {}): Record<string, string> {
  return { HOME: home, PATH: path, ...extra };
}

Deno.test(
  { name: "install.sh: latest, chosen version, corrupted archive, and what it fetches", ignore: !POSIX },
  async () => {
    const rel = await fakeRelease();
    try {
      const home = `${rel.root}/home`;
      await Deno.mkdir(home);
      const path = `${await fakeUname(rel.root, "Linux", "x86_64")}:${Deno.env.get("PATH")}`;
      const prefix = `${home}/.local/bin`;

      // Latest: the version comes from the archive names in <URL>/latest/SHA256SUMS.
      const latest = await run("sh", [INSTALL_SH, "--base-url", rel.url], { env: env(home, path) });
      assertEquals(latest.code, 0, latest.stderr);
      assertEquals(
        (await run(`${prefix}/mind-hooks`, ["--version"])).stdout,
        "mind-hooks 0.2.0 (x86_64-unknown-linux-gnu)\n",
      );
      assertEquals(rel.requests, [
        "/releases/latest/SHA256SUMS",
        "/releases/v0.2.0/SHA256SUMS",
        "/releases/v0.2.0/mind-hooks-0.2.0-x86_64-unknown-linux-gnu.tar.gz",
      ]);
      assertStringIncludes(latest.stdout, "matches SHA256SUMS");
      assertStringIncludes(latest.stdout, `installed ${prefix}/mind-hooks`);
      assertStringIncludes(latest.stdout, `${prefix} is not on your PATH`);
      assertEquals((await Deno.stat(`${prefix}/mind-hooks`)).mode! & 0o777, 0o755);

      // A chosen version, by option and by environment (a leading v is fine), and the base URL from the environment.
      rel.requests.length = 0;
      const chosen = await run("sh", [INSTALL_SH, "--version", "0.1.0"], {
        env: env(home, `${prefix}:${path}`, { MIND_HOOKS_DOWNLOAD_URL: `${rel.url}/` }),
      });
      assertEquals(chosen.code, 0, chosen.stderr);
      assertEquals(rel.requests, [
        "/releases/v0.1.0/SHA256SUMS",
        "/releases/v0.1.0/mind-hooks-0.1.0-x86_64-unknown-linux-gnu.tar.gz",
      ]);
      assert(!chosen.stdout.includes("not on your PATH"), chosen.stdout);
      const byEnv = await run("sh", [INSTALL_SH, `--prefix=${rel.root}/opt`], {
        env: env(home, path, { MIND_HOOKS_VERSION: "v0.2.0", MIND_HOOKS_DOWNLOAD_URL: rel.url }),
      });
      assertEquals(byEnv.code, 0, byEnv.stderr);
      assertEquals(
        (await run(`${rel.root}/opt/mind-hooks`, ["--version"])).stdout,
        "mind-hooks 0.2.0 (x86_64-unknown-linux-gnu)\n",
      );

      // A corrupted archive is refused with a clear message; the binary installed before stays as it was.
      const before = await Deno.readFile(`${prefix}/mind-hooks`);
      const corrupt = await run("sh", [INSTALL_SH, "--version", "0.3.0", "--base-url", rel.url], {
        env: env(home, path),
      });
      assertEquals(corrupt.code, 1, corrupt.stdout);
      assertStringIncludes(
        corrupt.stderr,
        "install.sh: checksum mismatch for mind-hooks-0.3.0-x86_64-unknown-linux-gnu.tar.gz",
      );
      assertStringIncludes(corrupt.stderr, "nothing was installed");
      assertEquals(await Deno.readFile(`${prefix}/mind-hooks`), before);
      assertEquals([...Deno.readDirSync(prefix)].map((e) => e.name), ["mind-hooks"], "no temp file left behind");

      // An archive SHA256SUMS does not list is refused too.
      const unlisted = await run("sh", [INSTALL_SH, "--version", "0.4.0", "--base-url", rel.url], {
        env: env(home, path),
      });
      assertEquals([unlisted.code, unlisted.stderr.trim()], [
        1,
        "install.sh: SHA256SUMS of v0.4.0 has no line for mind-hooks-0.4.0-x86_64-unknown-linux-gnu.tar.gz; nothing was installed",
      ]);
      const nested = await run("sh", [INSTALL_SH, "--version", "0.5.0", "--base-url", rel.url], {
        env: env(home, path),
      });
      assertEquals([nested.code, nested.stderr.trim()], [
        1,
        "install.sh: mind-hooks-0.5.0-x86_64-unknown-linux-gnu.tar.gz holds no mind-hooks at its top level; nothing was installed",
      ]);
      const missing = await run("sh", [INSTALL_SH, "--version", "9.9.9", "--base-url", rel.url], {
        env: env(home, path),
      });
      assertEquals([missing.code, missing.stderr.trim()], [
        1,
        `install.sh: cannot download ${rel.url}/v9.9.9/SHA256SUMS (HTTP 404)`,
      ]);
      for (const bad of [["--version", "../../etc"], ["--frobnicate"], ["--prefix"]]) {
        const r = await run("sh", [INSTALL_SH, "--base-url", rel.url, ...bad], { env: env(home, path) });
        assertEquals(r.code, 1, bad.join(" "));
        assertEquals(r.stderr.trim().split("\n").length, 1, r.stderr);
        assert(r.stderr.startsWith("install.sh: "), r.stderr);
      }
      assertEquals(await Deno.readFile(`${prefix}/mind-hooks`), before);
    } finally {
      await rel.server.shutdown();
      await Deno.remove(rel.root, { recursive: true });
    }
  },
);

Deno.test(
  { name: "install.sh: platform detection picks the archive of each target, or says why not", ignore: !POSIX },
  async () => {
    const rel = await fakeRelease();
    try {
      const home = `${rel.root}/home`;
      await Deno.mkdir(home);
      const cases: [string, string, string][] = [
        ["Linux", "aarch64", "aarch64-unknown-linux-gnu"],
        ["Linux", "amd64", "x86_64-unknown-linux-gnu"],
        ["Darwin", "arm64", "aarch64-apple-darwin"],
        ["Darwin", "x86_64", "x86_64-apple-darwin"],
      ];
      for (const [os, arch, triple] of cases) {
        rel.requests.length = 0;
        const path = `${await fakeUname(rel.root, os, arch)}:${Deno.env.get("PATH")}`;
        const r = await run("sh", [
          INSTALL_SH,
          "--version",
          "0.1.0",
          "--base-url",
          rel.url,
          "--prefix",
          `${home}/${triple}`,
        ], {
          env: env(home, path),
        });
        assertEquals(r.code, 0, `${os} ${arch}: ${r.stderr}`);
        assertEquals(rel.requests.at(-1), `/releases/v0.1.0/mind-hooks-0.1.0-${triple}.tar.gz`);
        assertEquals(
          (await run(`${home}/${triple}/mind-hooks`, ["--version"])).stdout,
          `mind-hooks 0.1.0 (${triple})\n`,
        );
      }
      for (
        const [os, arch, message] of [
          ["MINGW64_NT-10.0", "x86_64", "install.sh: this is Windows: use install.ps1 in PowerShell"],
          ["FreeBSD", "amd64", "install.sh: there is no mind-hooks binary for FreeBSD"],
          ["Linux", "riscv64", "install.sh: there is no mind-hooks binary for Linux on riscv64"],
        ]
      ) {
        const path = `${await fakeUname(rel.root, os, arch)}:${Deno.env.get("PATH")}`;
        const r = await run("sh", [INSTALL_SH, "--base-url", rel.url], { env: env(home, path) });
        assertEquals(r.code, 1, `${os} ${arch}`);
        assert(r.stderr.startsWith(message), r.stderr);
      }
    } finally {
      await rel.server.shutdown();
      await Deno.remove(rel.root, { recursive: true });
    }
  },
);

Deno.test(
  { name: "install.sh: curl | sh, wget instead of curl, and under dash and bash --posix", ignore: !POSIX },
  async () => {
    const rel = await fakeRelease();
    try {
      const home = `${rel.root}/home`;
      await Deno.mkdir(home);
      const unameBin = await fakeUname(rel.root, "Linux", "x86_64");
      const path = `${unameBin}:${Deno.env.get("PATH")}`;
      const script = await Deno.readTextFile(INSTALL_SH);
      // As the README has it: the script arrives on stdin, arguments after `sh -s --`.
      const piped = await run("sh", [
        "-s",
        "--",
        "--version",
        "0.1.0",
        "--base-url",
        rel.url,
        "--prefix",
        `${home}/piped`,
      ], {
        env: env(home, path),
        stdin: script,
      });
      assertEquals(piped.code, 0, piped.stderr);
      assertEquals(
        (await run(`${home}/piped/mind-hooks`, ["--version"])).stdout,
        "mind-hooks 0.1.0 (x86_64-unknown-linux-gnu)\n",
      );

      // Only wget: a PATH holding every tool the script uses except curl.
      const wget = await which("wget");
      if (wget) {
        const bin = `${rel.root}/no-curl`;
        await Deno.mkdir(bin);
        const tools = [
          "sh",
          "awk",
          "tar",
          "gzip",
          "mkdir",
          "mktemp",
          "cp",
          "chmod",
          "mv",
          "rm",
          "cat",
          "grep",
          "sha256sum",
        ];
        for (const tool of tools) {
          const at = await which(tool);
          if (at) await Deno.symlink(at, `${bin}/${tool}`);
        }
        await Deno.symlink(wget, `${bin}/wget`);
        const r = await run(`${bin}/sh`, [
          INSTALL_SH,
          "--version",
          "0.2.0",
          "--base-url",
          rel.url,
          "--prefix",
          `${home}/wget`,
        ], {
          env: env(home, `${unameBin}:${bin}`),
        });
        assertEquals(r.code, 0, r.stderr);
        assertEquals(
          (await run(`${home}/wget/mind-hooks`, ["--version"])).stdout,
          "mind-hooks 0.2.0 (x86_64-unknown-linux-gnu)\n",
        );
        const none = `${rel.root}/no-download`;
        await Deno.mkdir(none);
        for (const tool of tools) {
          const at = await which(tool);
          if (at) await Deno.symlink(at, `${none}/${tool}`);
        }
        const n = await run(`${none}/sh`, [INSTALL_SH, "--version", "0.2.0", "--base-url", rel.url], {
          env: env(home, `${unameBin}:${none}`),
        });
        assertEquals([n.code, n.stderr.trim()], [
          1,
          "install.sh: neither curl nor wget is installed: install one of them and run this again",
        ]);
      } else console.log("install.sh: the wget case skipped (no wget here)");

      for (const [shell, args] of [["dash", []], ["bash", ["--posix"]], ["zsh", ["--emulate", "sh"]]] as const) {
        const at = await which(shell);
        if (!at) {
          console.log(`install.sh: ${shell} not installed here; that shell skipped`);
          continue;
        }
        const dest = `${home}/${shell}`;
        const r = await run(at, [...args, INSTALL_SH, "--version", "0.1.0", "--base-url", rel.url, "--prefix", dest], {
          env: env(home, path),
        });
        assertEquals(r.code, 0, `${shell}: ${r.stderr}`);
        assertEquals(
          (await run(`${dest}/mind-hooks`, ["--version"])).stdout,
          "mind-hooks 0.1.0 (x86_64-unknown-linux-gnu)\n",
        );
        const corrupt = await run(at, [
          ...args,
          INSTALL_SH,
          "--version",
          "0.3.0",
          "--base-url",
          rel.url,
          "--prefix",
          dest,
        ], {
          env: env(home, path),
        });
        assertEquals(corrupt.code, 1, shell);
        assertStringIncludes(corrupt.stderr, "checksum mismatch");
      }
    } finally {
      await rel.server.shutdown();
      await Deno.remove(rel.root, { recursive: true });
    }
  },
);

Deno.test(
  { name: "install.sh --help documents the download URL layout, the version and the prefix", ignore: !POSIX },
  async () => {
    const r = await run("sh", [INSTALL_SH, "--help"]);
    assertEquals(r.code, 0, r.stderr);
    for (
      const part of [
        "--base-url URL",
        "MIND_HOOKS_DOWNLOAD_URL",
        "<URL>/v<version>/mind-hooks-<version>-<target>.tar.gz",
        "<URL>/v<version>/SHA256SUMS",
        "--version VERSION",
        "MIND_HOOKS_VERSION",
        "(default: the latest release)",
        "--prefix DIR",
        "(default: ~/.local/bin)",
        `(default: ${RELEASE.downloadUrl})`,
        "install.ps1",
      ]
    ) assertStringIncludes(r.stdout, part);
  },
);

Deno.test("install.ps1: the same contract (it cannot run here: these machines have no PowerShell)", async () => {
  const ps = await Deno.readTextFile(`${REPO}/install.ps1`);
  for (
    const part of [
      "[string]$Version = $env:MIND_HOOKS_VERSION",
      "[string]$Prefix = $env:MIND_HOOKS_PREFIX",
      "[string]$BaseUrl = $env:MIND_HOOKS_DOWNLOAD_URL",
      `$Repository = '${RELEASE.repository}'`,
      '$DefaultUrl = "https://github.com/$Repository/releases/download"',
      "$Target = 'x86_64-pc-windows-msvc'",
      'Save-Url "$base/v$ver/SHA256SUMS"',
      'Save-Url "$base/v$ver/$archive"',
      '"$base/latest/SHA256SUMS"',
      "Get-FileHash -Algorithm SHA256",
      "if ($actual -ne $expected)",
      "checksum mismatch for ${archive}: refusing to install it",
      "Join-Path $HOME '.local\\bin'",
      "mind-hooks.exe",
      "Expand-Archive",
      "if ($PSCommandPath) { exit 1 }",
    ]
  ) assertStringIncludes(ps, part);
  // The archive is verified before it is unpacked or copied anywhere.
  assert(ps.indexOf("if ($actual -ne $expected)") < ps.indexOf("Expand-Archive"), "verify before unpacking");
  assert(ps.indexOf("Expand-Archive") < ps.indexOf("Copy-Item"), "unpack before installing");
  if (await which("pwsh")) {
    const r = await run("pwsh", [
      "-NoProfile",
      "-Command",
      `$null = [ScriptBlock]::Create((Get-Content -Raw '${REPO}/install.ps1'))`,
    ]);
    assertEquals(r.code, 0, r.stderr);
  }
});
