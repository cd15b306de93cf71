/**
 * What a release is made of, derived from the one place the project states it: `deno.json`'s `version` and
 * `release.repository` (the GitHub `owner/name`). Every other coordinate comes from those two, so moving the
 * project to another repository is a one-line change in deno.json followed by `deno task release:sync`, which
 * rewrites the copies the installers and the README must carry literally (they run where deno.json is not).
 *
 * The release targets, their runners and their npm platform names are listed here once; the release workflow's
 * matrix, the npm packages, the Homebrew formula and the installers are checked against this table by the tests.
 * @module
 */
import denoJson from "../deno.json" with { type: "json" };

/** One platform the release ships a binary for. */
export type Target = {
  /** The Rust-style target triple that `deno compile --target` takes. */
  triple: string;
  /** Node's `process.platform` for it (the npm `os` field). */
  os: "linux" | "darwin" | "win32";
  /** Node's `process.arch` for it (the npm `cpu` field). */
  cpu: "x64" | "arm64";
  /** The GitHub-hosted runner that compiles and tests it natively. */
  runner: string;
  /** A name for people. */
  label: string;
};

/** The five targets, in the order the README lists them. */
export const TARGETS: readonly Target[] = [
  { triple: "x86_64-unknown-linux-gnu", os: "linux", cpu: "x64", runner: "ubuntu-24.04", label: "Linux x86_64" },
  { triple: "aarch64-unknown-linux-gnu", os: "linux", cpu: "arm64", runner: "ubuntu-24.04-arm", label: "Linux arm64" },
  { triple: "x86_64-apple-darwin", os: "darwin", cpu: "x64", runner: "macos-15-intel", label: "macOS Intel" },
  { triple: "aarch64-apple-darwin", os: "darwin", cpu: "arm64", runner: "macos-15", label: "macOS Apple silicon" },
  { triple: "x86_64-pc-windows-msvc", os: "win32", cpu: "x64", runner: "windows-2025", label: "Windows x86_64" },
];

/** The executable's file name on a target. */
export function binaryName(t: Target): string {
  return t.os === "win32" ? "mind-hooks.exe" : "mind-hooks";
}

/** The release archive of `version` for a target: zip on Windows, tar.gz elsewhere. */
export function archiveName(version: string, t: Target): string {
  return `mind-hooks-${version}-${t.triple}.${t.os === "win32" ? "zip" : "tar.gz"}`;
}

/** Where a release's files are, and what its packages are called. */
export type Coordinates = {
  /** GitHub `owner/name`. */
  repository: string;
  /** `https://github.com/<owner>/<name>`. */
  homepage: string;
  /** The installers' default base URL: files are at `<downloadUrl>/v<version>/<file>`. */
  downloadUrl: string;
  /** The npm launcher package, `@<owner>/<name>`; platform packages append `-<os>-<cpu>`. */
  npmPackage: string;
  /** The Homebrew tap repository, `<owner>/homebrew-tap` (users type `brew install <owner>/tap/mind-hooks`). */
  homebrewTap: string;
  /** What users type to install from the tap. */
  brewInstall: string;
};

const REPOSITORY_PATTERN = /^([A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))\/([A-Za-z0-9._-]{1,100})$/;

/** Derives every coordinate from a GitHub `owner/name`; throws on anything else. */
export function coordinates(repository: string): Coordinates {
  const m = REPOSITORY_PATTERN.exec(repository);
  if (!m) throw new Error(`release.repository must be a GitHub owner/name, got ${JSON.stringify(repository)}`);
  const [, owner, name] = m;
  const scope = owner.toLowerCase();
  return {
    repository,
    homepage: `https://github.com/${repository}`,
    downloadUrl: `https://github.com/${repository}/releases/download`,
    npmPackage: `@${scope}/${name.toLowerCase()}`,
    homebrewTap: `${owner}/homebrew-tap`,
    brewInstall: `brew install ${owner}/tap/mind-hooks`,
  };
}

/** The npm package that carries the binary of `t`. */
export function npmPlatformPackage(c: Coordinates, t: Target): string {
  return `${c.npmPackage}-${t.os}-${t.cpu}`;
}

/** This checkout's coordinates (from deno.json). */
export const RELEASE: Coordinates = coordinates(denoJson.release.repository);

/** This checkout's version (from deno.json). */
export const VERSION: string = denoJson.version;

/** The one-line description used by the npm packages and the Homebrew formula. */
export const DESCRIPTION = "Lifecycle-hooks engine for agent CLIs that runs only the hooks you trusted";
