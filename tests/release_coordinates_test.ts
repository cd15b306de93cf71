/**
 * The repository's coordinates live in one place, deno.json's `release.repository`; the files that must carry
 * them literally (the installers run where deno.json is not) name exactly the coordinates derived from it, and
 * `deno task release:sync` moves them all when it changes. No package registry host is named in the
 * distribution files. The CHANGELOG gives each release its notes.
 */
import { assert, assertEquals, assertThrows } from "./helpers/assert.ts";
import { REPO } from "./helpers/cli.ts";
import denoJson from "../deno.json" with { type: "json" };
import { coordinates, RELEASE } from "../scripts/release.ts";
import { repositoryIn, SYNCED_FILES, syncText } from "../scripts/release_sync.ts";
import { releaseNotes } from "../scripts/release_notes.ts";

const read = (f: string) => Deno.readTextFileSync(`${REPO}/${f}`);

Deno.test("coordinates: every copy in the installers, README and CHANGELOG is derived from deno.json", () => {
  assertEquals(RELEASE.repository, denoJson.release.repository);
  assertEquals(repositoryIn(read("install.sh")), RELEASE.repository);
  for (const f of SYNCED_FILES) {
    const text = read(f);
    for (const m of text.matchAll(/github\.com\/([A-Za-z0-9._-]+\/[A-Za-z0-9._-]+)/g)) {
      assertEquals(m[1].replace(/\.git$/, ""), RELEASE.repository, `${f}: ${m[0]}`);
    }
    for (const m of text.matchAll(/@[a-z0-9-]+\/mind-hooks(-[a-z0-9]+-[a-z0-9]+)?\b/g)) {
      assert(m[0].startsWith(RELEASE.npmPackage), `${f}: npm package ${m[0]}`);
    }
    for (const m of text.matchAll(/brew install ([^\s`]+)/g)) {
      assertEquals(`brew install ${m[1]}`, RELEASE.brewInstall, f);
    }
  }
  assert(read("install.ps1").includes(`$Repository = '${RELEASE.repository}'`), "install.ps1 names the repository");
});

Deno.test("coordinates: deno task release:sync --check finds nothing stale", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", "--config", `${REPO}/deno.json`, "release:sync", "--check"],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
  assertEquals(new TextDecoder().decode(out.stdout), `every file names ${RELEASE.repository}\n`);
});

Deno.test("coordinates: a new repository is a one-line change; sync rewrites every copy and can go back", () => {
  const to = coordinates("Acme-Tools/hooks-engine");
  assertEquals(to, {
    repository: "Acme-Tools/hooks-engine",
    homepage: "https://github.com/Acme-Tools/hooks-engine",
    downloadUrl: "https://github.com/Acme-Tools/hooks-engine/releases/download",
    npmPackage: "@acme-tools/hooks-engine",
    homebrewTap: "Acme-Tools/homebrew-tap",
    brewInstall: "brew install Acme-Tools/tap/mind-hooks",
  });
  for (const f of SYNCED_FILES) {
    const text = read(f);
    const moved = syncText(text, RELEASE, to);
    assertEquals(moved.includes(RELEASE.repository), false, `${f} still names ${RELEASE.repository}`);
    assertEquals(moved.includes(RELEASE.npmPackage), false, `${f} still names ${RELEASE.npmPackage}`);
    assertEquals(syncText(moved, to, RELEASE), text, `${f}: back again`);
    assertEquals(syncText(moved, to, to), moved, `${f}: idempotent`);
  }
  assertEquals(repositoryIn(syncText(read("install.sh"), RELEASE, to)), "Acme-Tools/hooks-engine");
  for (const bad of ["mind-hooks", "a/b/c", "-x/y", "owner/", "own er/x"]) assertThrows(() => coordinates(bad), bad);
});

Deno.test("no package registry host is named in the distribution files", () => {
  const files = [...SYNCED_FILES, "LICENSE", ".github/workflows/ci.yml", ".github/workflows/release.yml"];
  for (const e of Deno.readDirSync(`${REPO}/scripts`)) if (e.isFile) files.push(`scripts/${e.name}`);
  for (const e of Deno.readDirSync(`${REPO}/scripts/npm`)) files.push(`scripts/npm/${e.name}`);
  const hosts =
    /registry\.npmjs\.org|npmjs\.(com|org)|\bjsr\.io|deno\.land|pypi\.org|crates\.io|rubygems\.org|formulae\.brew\.sh|deb\.debian\.org/;
  for (const f of files) assertEquals(hosts.exec(read(f))?.[0] ?? null, null, f);
});

Deno.test("release notes: the CHANGELOG section of the version, dated; refused when missing", () => {
  const changelog = `# Changelog\n\n## [Unreleased]\n\n- next\n\n## [1.2.0] - 2026-11-30\n\n### Added\n\n- a\n\n` +
    `## [1.1.0] - 2026-10-01\n\n- b\n\n[Unreleased]: https://example.invalid\n`;
  assertEquals(releaseNotes(changelog, "1.2.0"), "### Added\n\n- a\n");
  assertEquals(releaseNotes(changelog, "1.1.0"), "- b\n");
  for (
    const [text, version, message] of [
      [changelog, "1.3.0", `CHANGELOG.md has no "## [1.3.0] - YYYY-MM-DD" section: write one before tagging`],
      ["## [2.0.0]\n\n- x\n", "2.0.0", `CHANGELOG.md: "## [2.0.0]" needs the release date: "## [2.0.0] - YYYY-MM-DD"`],
      ["## [2.0.0] - 2026-01-01\n\n## [1.0.0] - 2025-01-01\n", "2.0.0", "CHANGELOG.md: the section of 2.0.0 is empty"],
      [changelog, "1.2", `CHANGELOG.md has no "## [1.2] - YYYY-MM-DD" section: write one before tagging`],
    ]
  ) {
    let got = "";
    try {
      releaseNotes(text, version);
    } catch (e) {
      got = (e as Error).message;
    }
    assertEquals(got, message);
  }
  // The real CHANGELOG follows the format: an Unreleased section first.
  assert(/^## \[Unreleased\]$/m.test(read("CHANGELOG.md")), "CHANGELOG.md has ## [Unreleased]");
});
