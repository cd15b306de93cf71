/**
 * The README and the guide beside it (`docs/`) hold together: every relative link in them resolves to a file or
 * folder of the repository, every `#anchor` to a heading of its page (GitHub's heading ids), every page of
 * `docs/` is linked from the README, and each page opens with a paragraph saying what a reader comes to it for.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import { REPO } from "./helpers/cli.ts";

/** The Markdown files checked: the README and every page under docs/. */
function pages(): string[] {
  const out = ["README.md"];
  const walk = (dir: string) => {
    for (const e of [...Deno.readDirSync(`${REPO}/${dir}`)].sort((a, b) => a.name.localeCompare(b.name))) {
      if (e.isDirectory) walk(`${dir}/${e.name}`);
      else if (e.name.endsWith(".md")) out.push(`${dir}/${e.name}`);
    }
  };
  walk("docs");
  return out;
}

/** The text of a Markdown file with code blocks and code spans blanked (links in code are not links). */
function prose(markdown: string): string {
  return markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, "").replace(/`[^`\n]*`/g, "``");
}

/** The id GitHub gives a heading: its text lower-cased, punctuation dropped, spaces made hyphens. */
export function headingId(heading: string): string {
  const text = heading.replace(/\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/[`*]/g, "");
  return text.trim().toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "").replace(/ /g, "-");
}

/** Every heading id of a page, the repeated ones numbered as GitHub numbers them (`x`, `x-1`, …). */
export function headingIds(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const ids = new Set<string>();
  const text = markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, "");
  for (const m of text.matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const id = headingId(m[1]);
    const n = seen.get(id) ?? 0;
    seen.set(id, n + 1);
    ids.add(n === 0 ? id : `${id}-${n}`);
  }
  return ids;
}

/** Every link target of a page: inline links and images `[x](target)`, and reference definitions `[x]: target`. */
export function linkTargets(markdown: string): string[] {
  const text = prose(markdown);
  const inline = [...text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]);
  const refs = [...text.matchAll(/^ {0,3}\[[^\]]+\]:\s+<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1]);
  return [...inline, ...refs];
}

/** Why `target`, linked from `page`, does not resolve; null when it does (or is not a relative link). */
function deadLink(page: string, target: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return null; // https:, mailto:, …: not this repository's
  const [pathPart, anchor] = target.split("#", 2) as [string, string | undefined];
  const base = page.includes("/") ? page.slice(0, page.lastIndexOf("/")) : "";
  const parts: string[] = [];
  for (const seg of `${base}/${decodeURIComponent(pathPart)}`.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      if (parts.length === 0) return "leads outside the repository";
      parts.pop();
    } else parts.push(seg);
  }
  const resolved = pathPart === "" ? page : parts.join("/");
  if (!exists(resolved)) return `${resolved} does not exist`;
  if (anchor === undefined) return null;
  if (!resolved.endsWith(".md")) return `#${anchor} on a file that has no headings`;
  return headingIds(Deno.readTextFileSync(`${REPO}/${resolved}`)).has(anchor)
    ? null
    : `${resolved} has no heading #${anchor}`;
}

function exists(path: string): boolean {
  try {
    Deno.statSync(`${REPO}/${path}`);
    return true;
  } catch {
    return false;
  }
}

Deno.test("docs: every relative link and anchor in README.md and docs/ resolves", () => {
  const dead: string[] = [];
  let checked = 0;
  for (const page of pages()) {
    for (const target of linkTargets(Deno.readTextFileSync(`${REPO}/${page}`))) {
      checked++;
      const why = deadLink(page, target);
      if (why) dead.push(`${page}: (${target}) ${why}`);
    }
  }
  assertEquals(dead, []);
  assert(checked > 100, `only ${checked} links found`);
});

Deno.test("docs: every page is linked from the README and opens with what a reader comes for", () => {
  const readme = linkTargets(Deno.readTextFileSync(`${REPO}/README.md`)).map((t) => t.split("#")[0]);
  for (const page of pages().slice(1)) {
    assert(readme.includes(page), `README.md does not link to ${page}`);
    const [title, blank, first] = Deno.readTextFileSync(`${REPO}/${page}`).split("\n");
    assert(/^# \S/.test(title) && blank === "", `${page} starts with its title`);
    assert(/^[A-Z`*[]/.test(first ?? "") && !first.startsWith("#"), `${page} opens with a paragraph: ${first}`);
  }
});

Deno.test("docs: heading ids and link targets are read as GitHub reads them", () => {
  assertEquals(
    [...headingIds(
      "# T\n## Keys, hashes and states (§3)\n## How `config.toml` is edited\n## A\n```sh\n## no\n```\n## A\n",
    )],
    ["t", "keys-hashes-and-states-3", "how-configtoml-is-edited", "a", "a-1"],
  );
  assertEquals(
    headingId("Why a hook did or did not run: `dispatch --explain`"),
    "why-a-hook-did-or-did-not-run-dispatch---explain",
  );
  assertEquals(
    linkTargets('[a](x.md#y) ![i](p.png "t") `[no](z)`\n```\n[no](q)\n```\n[ref]: ../LICENSE\n[u](https://e.x)'),
    ["x.md#y", "p.png", "https://e.x", "../LICENSE"],
  );
  assertEquals(deadLink("docs/a.md", "../../x"), "leads outside the repository");
  assertEquals(deadLink("README.md", "docs/nope.md"), "docs/nope.md does not exist");
  assertEquals(deadLink("README.md", "#no-such-heading"), "README.md has no heading #no-such-heading");
  assertEquals(deadLink("README.md", "#a-5-minute-tour"), null);
});
