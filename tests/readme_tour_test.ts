/**
 * The README's 5-minute tour, run exactly as printed: every `sh` block of the section, in order, in one POSIX
 * shell, as a new user would type them — starting with `npx -y deno@2.9.6 task install` from the checkout, which
 * puts the `mind-hooks` launcher on PATH. The user's home is a temp dir (so `~/.local/bin` and `~/my-repo` are
 * fresh); only the npm and Deno caches are the machine's own, as they would be for that user.
 */
import { assert, assertEquals, assertStringIncludes } from "./helpers/assert.ts";
import { REPO } from "./helpers/cli.ts";
import denoJson from "../deno.json" with { type: "json" };

const skip = Deno.build.os === "windows";
if (skip) console.log("readme tour: skipped on Windows (a POSIX shell tour)");

/** The `sh` blocks of the README section `heading`, de-indented as Markdown renders them. */
export function shellBlocks(readme: string, heading: string): string[] {
  const start = readme.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`README has no "## ${heading}" section`);
  const end = readme.indexOf("\n## ", start + 1);
  const section = readme.slice(start, end < 0 ? undefined : end);
  const blocks: string[] = [];
  for (const m of section.matchAll(/^([ \t]*)```sh\n([\s\S]*?)^\1```$/gm)) {
    const indent = m[1].length;
    blocks.push(m[2].split("\n").map((l) => l.slice(Math.min(indent, l.match(/^ */)![0].length))).join("\n"));
  }
  return blocks;
}

async function output(cmd: string, args: string[]): Promise<string> {
  const out = await new Deno.Command(cmd, { args, stdout: "piped", stderr: "null" }).output();
  return new TextDecoder().decode(out.stdout).trim();
}

async function which(cmd: string): Promise<boolean> {
  try {
    return (await new Deno.Command("sh", { args: ["-c", `command -v ${cmd}`], stdout: "null" }).output()).success;
  } catch {
    return false;
  }
}

Deno.test({
  name: "README tour: every block as printed, from deno task install to the modified hook",
  ignore: skip,
  async fn() {
    if (!await which("npx") || !await which("python3")) {
      console.log("readme tour: skipped (needs npx and python3 on PATH, as the README does)");
      return;
    }
    const blocks = shellBlocks(await Deno.readTextFile(`${REPO}/README.md`), "A 5-minute tour");
    assertEquals(blocks.length, 7, "the tour has seven shell blocks (steps 0–6)");
    assertStringIncludes(blocks[0], "npx -y deno@2.9.6 task install", "the tour starts by installing the launcher");

    const home = await Deno.realPath(await Deno.makeTempDir({ prefix: "mind-tour-home-" }));
    try {
      // The user's caches, so that npx and deno find what they already downloaded (no network here).
      const npmCache = await output("npm", ["config", "get", "cache"]);
      const denoDir = JSON.parse(await output(Deno.execPath(), ["info", "--json"])).denoDir as string;
      const marker = (i: number) => `@@tour-block-${i}@@`;
      // Each step is marked on stdout and stderr alike, so either can be read per step.
      const script = ["set -e", ...blocks.flatMap((b, i) => [`echo '${marker(i)}'; echo '${marker(i)}' >&2`, b])]
        .join("\n");
      const out = await new Deno.Command("sh", {
        args: ["-c", script],
        cwd: REPO,
        clearEnv: true,
        env: {
          HOME: home,
          PATH: Deno.env.get("PATH") ?? "",
          npm_config_cache: npmCache,
          DENO_DIR: denoDir,
          SHELL: "/bin/sh",
          // A machine's /etc/mind/requirements.toml must not change the result.
          MIND_REQUIREMENTS: `${home}/no-requirements.toml`,
          ...(Deno.env.get("TMPDIR") ? { TMPDIR: Deno.env.get("TMPDIR")! } : {}),
        },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const stdout = new TextDecoder().decode(out.stdout);
      const stderr = new TextDecoder().decode(out.stderr);
      assertEquals(out.code, 0, `the tour failed:\n${stdout}\n${stderr}`);
      const step = (i: number) => stdout.split(marker(i))[1].split(marker(i + 1))[0];
      const stepErr = (i: number) => stderr.split(marker(i))[1].split(marker(i + 1))[0];

      const repo = `${home}/my-repo`;
      assertStringIncludes(step(0), `wrote ${home}/.local/bin/mind-hooks`);
      assertStringIncludes(step(0), `mind-hooks ${denoJson.version}\n`);
      assertStringIncludes(step(2), `trusted project ${repo}`);
      assertStringIncludes(step(2), "status: untrusted");
      const denied = JSON.parse(step(4));
      assertEquals([denied.decision, denied.reason, denied.runs[0].key], [
        "deny",
        "rm -rf is not allowed",
        `project:${repo}/.mind/hooks.json:PreToolUse:0:0`,
      ]);
      // --explain: the trace on stderr, one line for the hook.
      assertStringIncludes(
        stepErr(4),
        `project:${repo}/.mind/hooks.json:PreToolUse:0:0 · matcher "Bash": matched · trusted`,
      );
      const modified = JSON.parse(step(5));
      assertEquals(
        [modified.decision, modified.runs[0].status, modified.runs[0].reason, modified.systemMessages],
        [null, "skipped", "modified", ["1 hook needs review: run mind-hooks review"]],
      );
      // logs: the day and session, both runs of the hook (each line within 80 columns), then prune finds
      // nothing to remove.
      const logged = step(6).trim().split("\n");
      assertEquals(logged.length, 4, step(6));
      assert(/^── \d{4}-\d\d-\d\d · session s1$/.test(logged[0]), logged[0]);
      assert(
        /^\d\d:\d\d:\d\d {2}blocked +\d+ ms {2}my-repo\/\.mind\/hooks\.json:PreToolUse:0:0$/.test(logged[1]),
        logged[1],
      );
      assert(
        /^\d\d:\d\d:\d\d {2}skipped +- {2}my-repo\/\.mind\/hooks\.json:PreToolUse:0:0 {2}\(modified\)$/.test(logged[2]),
        logged[2],
      );
      assert(logged.slice(0, 3).every((l) => l.length <= 80), step(6));
      assertStringIncludes(logged[3], "nothing to prune");
      // The launcher the tour installed is the one generated at install time, pointing at this checkout.
      const launcher = await Deno.readTextFile(`${home}/.local/bin/mind-hooks`);
      assert(launcher.includes(` run -q -P --no-prompt --config '${REPO}/deno.json' '${REPO}/main.ts' "$@"`), launcher);
    } finally {
      await Deno.remove(home, { recursive: true });
    }
  },
});

Deno.test("README tour: blocks are read de-indented, in order, from the tour section only", () => {
  const md =
    "# x\n\n## Other\n\n```sh\nno\n```\n\n## A 5-minute tour\n\n1. a\n\n   ```sh\n   one\n     two\n   ```\n\n" +
    "```sh\nthree\n```\n\n## Next\n\n```sh\nno\n```\n";
  assertEquals(shellBlocks(md, "A 5-minute tour"), ["one\n  two\n", "three\n"]);
});
