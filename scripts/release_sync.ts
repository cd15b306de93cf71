/**
 * `deno task release:sync [--check]`: after `release.repository` changes in deno.json, rewrites the copies of
 * the coordinates that files read where deno.json is not — the installers (`curl | sh` runs them alone), the
 * README, the guide's pages under docs/ and CHANGELOG.md. The old repository is the one install.sh names. `--check` changes nothing and exits 1
 * when a file is out of date (the tests run the same check).
 * @module
 */
import { type Coordinates, coordinates, RELEASE } from "./release.ts";
import { runScript, UsageError } from "./cli.ts";

const HELP = `deno task release:sync [--check]

Rewrites the release coordinates (GitHub repository, download URL, npm package, Homebrew
tap) in install.sh, install.ps1, README.md, docs/*.md and CHANGELOG.md to those derived from
deno.json's release.repository (now ${RELEASE.repository}).
  --check  change nothing; exit 1 if a file is out of date`;

/** The files that carry the coordinates literally: the installers, the README and every page beside it, the CHANGELOG. */
export const SYNCED_FILES: readonly string[] = [
  "install.sh",
  "install.ps1",
  "README.md",
  ...docsPages(),
  "CHANGELOG.md",
];

/** The guide's pages (`docs/*.md`), sorted; a page added later is synced without being listed here. */
function docsPages(): string[] {
  const dir = new URL("../docs/", import.meta.url);
  return [...Deno.readDirSync(dir)].filter((e) => e.isFile && e.name.endsWith(".md")).map((e) => `docs/${e.name}`)
    .sort();
}

/** The repository install.sh names now (`REPOSITORY="owner/name"`). */
export function repositoryIn(installSh: string): string {
  const m = /^REPOSITORY="([^"]+)"$/m.exec(installSh);
  if (!m) throw new UsageError(`install.sh has no REPOSITORY="owner/name" line`);
  return m[1];
}

/** `text` with every coordinate of `from` replaced by the same coordinate of `to`, in one pass. */
export function syncText(text: string, from: Coordinates, to: Coordinates): string {
  const pairs: [string, string][] = [
    [from.brewInstall, to.brewInstall],
    [from.homebrewTap, to.homebrewTap],
    [from.npmPackage, to.npmPackage],
    [from.repository, to.repository],
  ];
  // Longest first, so a coordinate that contains another (the npm name holds owner/name) wins.
  const sorted = pairs.filter(([a]) => a !== "").sort((a, b) => b[0].length - a[0].length);
  const map = new Map(sorted);
  const re = new RegExp(sorted.map(([a]) => a.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"), "g");
  return text.replace(re, (m) => map.get(m)!);
}

if (import.meta.main) {
  await runScript("release:sync", { check: { type: "boolean" } }, HELP, async (o, rest) => {
    if (rest.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(rest[0])} (see --help)`);
    const root = new URL("../", import.meta.url);
    const from = coordinates(repositoryIn(await Deno.readTextFile(new URL("install.sh", root))));
    const stale: string[] = [];
    for (const f of SYNCED_FILES) {
      const text = await Deno.readTextFile(new URL(f, root));
      const next = syncText(text, from, RELEASE);
      if (next === text) continue;
      stale.push(f);
      if (!o.check) await Deno.writeTextFile(new URL(f, root), next);
    }
    if (o.check && stale.length > 0) {
      throw new UsageError(`${stale.join(", ")} still name ${from.repository}: run deno task release:sync`);
    }
    console.log(
      stale.length === 0
        ? `every file names ${RELEASE.repository}`
        : `${stale.join(", ")}: ${from.repository} -> ${RELEASE.repository}`,
    );
    return 0;
  });
}
