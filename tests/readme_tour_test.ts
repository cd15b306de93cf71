/**
 * The README's 5-minute tour, run exactly as printed: every `sh` block of the section, in order, in one POSIX
 * shell, as a new user would type them — starting with `npx -y deno@2.9.6 task install` from the checkout, which
 * puts the `mind-hooks` launcher on PATH, and ending with `mind-hooks install claude`. The last block talks to
 * the agent itself; it runs in the interop suite against the real Claude Code (tests/interop/readme_tour.ts).
 * The user's home is a temp dir (so `~/.local/bin`, `~/.claude` and `~/my-repo` are fresh); only the npm and
 * Deno caches are the machine's own, as they would be for that user. The README itself: at most 300 lines, the
 * two set-up commands as the issue fixed them, and no indented code block anywhere (a heredoc copied from a
 * terminal view of an indented block never ends).
 */
import { assert, assertEquals, assertStringIncludes } from "./helpers/assert.ts";
import { REPO } from "./helpers/cli.ts";
import {
  onPath,
  shellBlocks,
  TOUR_BLOCKS,
  TOUR_HEADING,
  tourScript,
  tourStep,
  userCaches,
} from "./helpers/readme_tour.ts";
import denoJson from "../deno.json" with { type: "json" };

const skip = Deno.build.os === "windows";
if (skip) console.log("readme tour: skipped on Windows (a POSIX shell tour)");

const readme = () => Deno.readTextFile(`${REPO}/README.md`);

Deno.test("README: a page a person reads — at most 300 lines, the two set-up commands, no indented code block", async () => {
  const text = await readme();
  const lines = text.split("\n").length - 1;
  assert(lines <= 300, `README.md has ${lines} lines`);
  assertStringIncludes(
    text,
    "```sh\nnpx -y deno@2.9.6 task demo    # runs dispatch on a bundled example (a hook that denies rm -rf)\n" +
      "npx -y deno@2.9.6 task test    # runs the test suite\n```\n",
  );
  assertEquals(/^[ \t]+```/m.exec(text)?.[0] ?? null, null, "an indented code fence");
  // What it must still say: why npm packages come through deno.json, and that deno.lock is committed.
  assertStringIncludes(text, "JSR");
  assertStringIncludes(text, "committed `deno.lock`");
});

Deno.test({
  name: "README tour: every block as printed, from deno task install to connecting Claude Code",
  ignore: skip,
  async fn() {
    if (!await onPath("npx") || !await onPath("python3")) {
      console.log("readme tour: skipped (needs npx and python3 on PATH, as the README does)");
      return;
    }
    const blocks = shellBlocks(await readme(), TOUR_HEADING);
    assertEquals(blocks.length, TOUR_BLOCKS, "the tour has nine shell blocks (steps 0–8)");
    assertStringIncludes(blocks[0], "npx -y deno@2.9.6 task install", "the tour starts by installing the launcher");
    assertStringIncludes(blocks[7], "mind-hooks install claude", "step 7 connects the agent");
    assertStringIncludes(blocks[8], "claude -p ", "step 8 asks the agent (run by the interop suite)");

    const home = await Deno.realPath(await Deno.makeTempDir({ prefix: "mind-tour-home-" }));
    try {
      const out = await new Deno.Command("sh", {
        args: ["-c", tourScript(blocks.slice(0, 8))],
        cwd: REPO,
        clearEnv: true,
        env: {
          HOME: home,
          PATH: Deno.env.get("PATH") ?? "",
          ...await userCaches(),
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
      const step = (i: number) => tourStep(stdout, i);

      const repo = `${home}/my-repo`;
      const key = `project:${repo}/.mind/hooks.json:PreToolUse:0:0`;
      assertStringIncludes(step(0), `wrote ${home}/.local/bin/mind-hooks`);
      assertStringIncludes(step(0), `mind-hooks ${denoJson.version}\n`);
      assertStringIncludes(step(2), `trusted project ${repo}`);
      assertStringIncludes(step(2), "status: untrusted");
      assertStringIncludes(step(3), "trusted 1 hook on 1 event: PreToolUse 1\n");
      assertStringIncludes(step(3), "1 pinned file");
      assertStringIncludes(step(3), ".mind/hooks.json:PreToolUse:0:0  python3 .mind/check_tool.py");
      const denied = JSON.parse(step(4));
      assertEquals([denied.decision, denied.reason, denied.runs[0].key], ["deny", "rm -rf is not allowed", key]);
      // --explain: the trace on stderr, the hook's key tail, then what happened to it.
      assertStringIncludes(
        tourStep(stderr, 4),
        `.mind/hooks.json:PreToolUse:0:0\n      matcher "Bash": matched · trusted`,
      );
      const modified = JSON.parse(step(5));
      assertEquals(
        [modified.decision, modified.runs[0].status, modified.runs[0].reason, modified.systemMessages],
        [null, "skipped", "modified", ["1 hook needs review: run mind-hooks review"]],
      );
      // Trusted again (its script pinned again), both runs logged (the day and session, then each run, every line
      // within 80 columns), nothing to prune.
      const [trusted, pinned, ...logged] = step(6).trim().split("\n");
      assert(trusted.startsWith(`trusted ${key} sha256:`), trusted);
      assert(pinned.trim().startsWith("pinned .mind/check_tool.py sha256:"), pinned);
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
      // Claude Code now hands its events to the launcher the tour put on PATH.
      assertStringIncludes(step(7), `${home}/.claude/settings.json: Claude Code now delegates SessionStart`);
      const settings = JSON.parse(await Deno.readTextFile(`${home}/.claude/settings.json`));
      // By the launcher's absolute path (the agent's own PATH may lack ~/.local/bin), guarded (SPEC §6 r4).
      assertStringIncludes(
        settings.hooks.PreToolUse[0].hooks[0].command,
        `; ${home}/.local/bin/mind-hooks dispatch --protocol claude; s=$?;`,
      );
      // The launcher the tour installed is the one generated at install time, pointing at this checkout.
      const launcher = await Deno.readTextFile(`${home}/.local/bin/mind-hooks`);
      assert(launcher.includes(`checkout='${REPO}'\n`), launcher);
      assert(launcher.includes(` run -q -P --no-prompt --config "$checkout/deno.json" "$checkout/main.ts" "$@"`));
    } finally {
      await Deno.remove(home, { recursive: true });
    }
  },
});

Deno.test("README tour: blocks are read in order from the tour section only; an indented block is refused", () => {
  const md = "# x\n\n## Other\n\n```sh\nno\n```\n\n## A 5-minute tour\n\n**1. a**\n\n```sh\none\n  two\n```\n\n" +
    "```sh\nthree\n```\n\n## Next\n\n```sh\nno\n```\n";
  assertEquals(shellBlocks(md, "A 5-minute tour"), ["one\n  two\n", "three\n"]);
  const indented = "## A 5-minute tour\n\n1. a\n\n   ```sh\n   cat <<'EOF'\n   x\n   EOF\n   ```\n";
  let refused = "";
  try {
    shellBlocks(`\n${indented}`, "A 5-minute tour");
  } catch (e) {
    refused = (e as Error).message;
  }
  assertEquals(refused, 'the "A 5-minute tour" section has an indented code block: ```sh');
});
