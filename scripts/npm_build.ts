/**
 * `deno task npm:build --binaries DIR --out DIR`: turns the five compiled binaries of a release into the npm
 * packages, the way Deno, Claude Code and Codex ship theirs: one small launcher package whose `mind-hooks`
 * command starts the native binary, and one package per target holding that binary, restricted by its
 * `os`/`cpu` (and `libc`) fields and listed as an optional dependency of the launcher, so npm installs only
 * the one that fits the machine.
 *
 * In:  `DIR/<target triple>/mind-hooks` (`mind-hooks.exe` for Windows), one per target of scripts/release.ts.
 * Out: `OUT/mind-hooks/` (the launcher) and `OUT/mind-hooks-<os>-<cpu>/` (one per target), each ready for
 *      `npm pack` / `npm publish`; publish the platform packages first.
 * @module
 */
import {
  binaryName,
  type Coordinates,
  DESCRIPTION,
  npmPlatformPackage,
  RELEASE,
  type Target,
  TARGETS,
  VERSION,
} from "./release.ts";
import { fromInvocation, required, runScript, UsageError } from "./cli.ts";
import { join } from "../src/util/paths.ts";

const HELP = `deno task npm:build --binaries DIR --out DIR

Builds the npm packages of mind-hooks ${VERSION} from compiled binaries.
  --binaries DIR  holds DIR/<target>/mind-hooks (mind-hooks.exe on Windows) for every target:
                  ${TARGETS.map((t) => t.triple).join(",\n                  ")}
  --out DIR       receives one folder per package (must be empty or absent):
                  mind-hooks/ (the launcher ${RELEASE.npmPackage}) and mind-hooks-<os>-<cpu>/`;

/** A package.json, as written. */
export type Manifest = Record<string, unknown>;

function common(c: Coordinates, version: string): Manifest {
  return {
    version,
    license: "MIT",
    homepage: c.homepage,
    repository: { type: "git", url: `git+${c.homepage}.git` },
    bugs: { url: `${c.homepage}/issues` },
  };
}

/** The launcher package's manifest: the `mind-hooks` bin and every platform package as an optional dependency. */
export function launcherManifest(c: Coordinates, version: string, targets: readonly Target[] = TARGETS): Manifest {
  return {
    name: c.npmPackage,
    description: DESCRIPTION,
    ...common(c, version),
    type: "module",
    bin: { "mind-hooks": "bin/mind-hooks.js" },
    files: ["bin/", "README.md", "LICENSE"],
    engines: { node: ">=18" },
    optionalDependencies: Object.fromEntries(targets.map((t) => [npmPlatformPackage(c, t), version])),
  };
}

/** A platform package's manifest: only installable where `os`/`cpu` (and glibc, on Linux) fit. */
export function platformManifest(c: Coordinates, version: string, t: Target): Manifest {
  return {
    name: npmPlatformPackage(c, t),
    description: `The mind-hooks binary for ${t.label} (installed by ${c.npmPackage}; install that one)`,
    ...common(c, version),
    os: [t.os],
    cpu: [t.cpu],
    // The Linux binaries link against glibc; on musl (Alpine) npm skips the package and the launcher says so.
    ...(t.os === "linux" ? { libc: ["glibc"] } : {}),
    files: ["bin/", "README.md", "LICENSE"],
    preferUnplugged: true,
  };
}

function platformReadme(c: Coordinates, t: Target): string {
  return `# ${npmPlatformPackage(c, t)}\n\nThe \`mind-hooks\` binary for ${t.label} (\`${t.triple}\`). ` +
    `Install [\`${c.npmPackage}\`](${c.homepage}) instead: it depends on this package where it fits and runs it.\n`;
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false;
  }
}

async function isEmptyOrAbsent(dir: string): Promise<boolean> {
  try {
    for await (const _ of Deno.readDir(dir)) return false;
    return true;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return true;
    throw e;
  }
}

async function writeJson(path: string, value: unknown): Promise<void> {
  await Deno.writeTextFile(path, JSON.stringify(value, null, 2) + "\n");
}

/** Builds every package into `out` from the binaries under `binaries`; returns the package folders written. */
export async function buildNpmPackages(
  binaries: string,
  out: string,
  opts: { coordinates?: Coordinates; version?: string; repoRoot?: URL } = {},
): Promise<string[]> {
  const c = opts.coordinates ?? RELEASE;
  const version = opts.version ?? VERSION;
  const root = opts.repoRoot ?? new URL("../", import.meta.url);
  const missing: string[] = [];
  for (const t of TARGETS) {
    const bin = join(binaries, t.triple, binaryName(t));
    if (!await isFile(bin)) missing.push(bin);
  }
  if (missing.length > 0) throw new UsageError(`no binary at ${missing.join(", ")}`);
  if (!await isEmptyOrAbsent(out)) throw new UsageError(`--out ${out} is not empty`);

  const license = await Deno.readTextFile(new URL("LICENSE", root));
  const written: string[] = [];
  for (const t of TARGETS) {
    const dir = join(out, `mind-hooks-${t.os}-${t.cpu}`);
    await Deno.mkdir(join(dir, "bin"), { recursive: true });
    const dest = join(dir, "bin", binaryName(t));
    await Deno.copyFile(join(binaries, t.triple, binaryName(t)), dest);
    if (t.os !== "win32" && Deno.build.os !== "windows") await Deno.chmod(dest, 0o755);
    await writeJson(join(dir, "package.json"), platformManifest(c, version, t));
    await Deno.writeTextFile(join(dir, "README.md"), platformReadme(c, t));
    await Deno.writeTextFile(join(dir, "LICENSE"), license);
    written.push(dir);
  }
  const launcher = join(out, "mind-hooks");
  await Deno.mkdir(join(launcher, "bin"), { recursive: true });
  const script = join(launcher, "bin", "mind-hooks.js");
  await Deno.copyFile(new URL("scripts/npm/mind-hooks.js", root), script);
  if (Deno.build.os !== "windows") await Deno.chmod(script, 0o755);
  await writeJson(join(launcher, "package.json"), launcherManifest(c, version));
  await Deno.copyFile(new URL("README.md", root), join(launcher, "README.md"));
  await Deno.writeTextFile(join(launcher, "LICENSE"), license);
  written.push(launcher);
  return written;
}

if (import.meta.main) {
  await runScript("npm:build", { binaries: { type: "string" }, out: { type: "string" } }, HELP, async (o, rest) => {
    if (rest.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(rest[0])} (see --help)`);
    const dirs = await buildNpmPackages(
      fromInvocation(required(o, "binaries", "DIR")),
      fromInvocation(required(o, "out", "DIR")),
    );
    for (const d of dirs) console.log(d);
    return 0;
  });
}
