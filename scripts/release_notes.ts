/**
 * `deno task release:notes VERSION`: prints the CHANGELOG.md section of VERSION (`## [VERSION] - YYYY-MM-DD`),
 * which the release workflow publishes as the release's notes. Exit 1 when there is none, so a tag cannot be
 * released before its changes are written down.
 * @module
 */
import { runScript, UsageError } from "./cli.ts";

const HELP = `deno task release:notes VERSION

Prints the body of the section "## [VERSION] - YYYY-MM-DD" of CHANGELOG.md (exit 1 if there is none).`;

/** The body of `version`'s section in a Keep a Changelog text; a usage error when it is missing or undated. */
export function releaseNotes(changelog: string, version: string): string {
  const lines = changelog.split(/\r?\n/);
  const escaped = version.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const start = lines.findIndex((l) => new RegExp(`^## \\[${escaped}\\]`).test(l));
  if (start < 0) {
    throw new UsageError(`CHANGELOG.md has no "## [${version}] - YYYY-MM-DD" section: write one before tagging`);
  }
  if (!new RegExp(`^## \\[${escaped}\\] - \\d{4}-\\d{2}-\\d{2}$`).test(lines[start])) {
    throw new UsageError(`CHANGELOG.md: "${lines[start]}" needs the release date: "## [${version}] - YYYY-MM-DD"`);
  }
  let end = lines.findIndex((l, i) => i > start && (/^## /.test(l) || /^\[[^\]]+\]: /.test(l)));
  if (end < 0) end = lines.length;
  const body = lines.slice(start + 1, end).join("\n").trim();
  if (body === "") throw new UsageError(`CHANGELOG.md: the section of ${version} is empty`);
  return body + "\n";
}

if (import.meta.main) {
  await runScript("release:notes", {}, HELP, async (_o, rest) => {
    if (rest.length !== 1) throw new UsageError("release:notes needs one VERSION (see --help)");
    const text = await Deno.readTextFile(new URL("../CHANGELOG.md", import.meta.url));
    await Deno.stdout.write(new TextEncoder().encode(releaseNotes(text, rest[0].replace(/^v/, ""))));
    return 0;
  });
}
