/**
 * `mind-hooks review` after connecting an agent (issue 36), in a real terminal (tmux) at 80×24: the
 * hooks Claude Code runs itself say so; `p` counts every layer of the project; a stray `d` on a guard
 * says what happened and `z` undoes it; the content of the files a trust pins is shown before trusting.
 *
 * Without tmux these tests are skipped with a printed reason.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import { cli, listJson, makeWorld, Tmux, tmuxAvailable, type World } from "../fixtures/review/harness.ts";

const HAVE_TMUX = await tmuxAvailable();
if (!HAVE_TMUX) console.log("review_round3_tmux_test: tmux is not installed; skipping");

const GUARD_LINE = "print('GUARD-BODY: refuses rm -rf')";

/** A repository with a `.mind/` guard pinning `.mind/guard.py`, and two hooks in `.claude/settings.json`. */
async function setup(w: World): Promise<void> {
  await Deno.writeTextFile(`${w.repo}/.mind/guard.py`, `import sys\n${GUARD_LINE}\nsys.exit(0)\n`);
  await Deno.writeTextFile(
    `${w.repo}/.mind/hooks.json`,
    JSON.stringify({
      hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "python3 .mind/guard.py" }] }] },
    }),
  );
  await Deno.mkdir(`${w.repo}/.claude`);
  await Deno.writeTextFile(
    `${w.repo}/.claude/settings.json`,
    JSON.stringify({
      hooks: {
        PostToolUse: [{ matcher: "Edit", hooks: [{ type: "command", command: "echo claude-own-a" }] }],
        Stop: [{ hooks: [{ type: "command", command: "echo claude-own-b" }] }],
      },
    }),
  );
}

/** Starts review at 80×24 in a fresh world set up by `prepare`, runs `fn`, cleans up. */
async function withReview(prepare: (w: World) => Promise<void>, fn: (t: Tmux, w: World) => Promise<void>) {
  const w = await makeWorld();
  try {
    await setup(w);
    await prepare(w);
    const t = await Tmux.start(w, ["review", ...w.opts], { cols: 80, rows: 24, env: { NO_COLOR: "1" } });
    try {
      await t.waitFor((x) => x.includes("mind-hooks review ·"), "the review screen");
      await fn(t, w);
    } finally {
      await t.kill();
    }
  } finally {
    await w.cleanup();
  }
}

/** The screen as one line: wrapped text joined, runs of spaces as one. */
const flat = (screen: string) => screen.replace(/\s+/g, " ");

Deno.test({
  name: "review (tmux): p counts every layer of the project; Claude Code's own hooks say it runs them itself",
  ignore: !HAVE_TMUX,
  async fn() {
    await withReview(async () => {}, async (t) => {
      await t.keys("p");
      // 1 in .mind/ and 2 in .claude/: all three need review, not the .mind/ one alone.
      const s = await t.waitFor((x) => flat(x).includes("trusted project"), "the project trusted");
      assert(flat(s).includes("3 of its hooks need review"), s);
      // The .claude/ file's header and rows say Claude Code runs them whatever their status here.
      await t.keys("/", ..."claude-own-a".split(""), "Enter");
      const d = await t.waitFor((x) => x.includes("Runs"), "the details of a .claude/ hook");
      assert(flat(d).includes("Claude Code runs"), d);
      assert(flat(d).includes("the status here applies when mind or another host runs it"), d);
    });
  },
});

Deno.test({
  name: "review (tmux): d on a guard says it no longer guards, and z undoes it",
  ignore: !HAVE_TMUX,
  async fn() {
    await withReview(async (w) => {
      assertEquals((await cli(["project", "trust", ...w.opts], { cwd: w.repo })).code, 0);
      assertEquals((await cli(["trust", "--all", ...w.opts], { cwd: w.repo })).code, 0);
    }, async (t, w) => {
      await t.keys("/", ..."guard.py".split(""), "Enter");
      await t.waitFor((x) => x.includes("python3 .mind/guard.py") && x.includes("1 of 1"), "the guard selected");
      await t.keys("d");
      const s = await t.waitFor((x) => flat(x).includes("z undoes"), "what d did");
      assert(flat(s).includes("PreToolUse guard no longer runs"), s);
      let data = await listJson(w);
      assertEquals(data.hooks.find((h) => h.layer === "project")?.enabled, false);
      await t.keys("z");
      const u = await t.waitFor((x) => flat(x).includes("(undone)"), "z undid it");
      assert(flat(u).includes("enabled"), u);
      data = await listJson(w);
      assertEquals(data.hooks.find((h) => h.layer === "project")?.enabled, true);
    });
  },
});

Deno.test({
  name: "review (tmux): before trusting, the details and the confirmation show the pinned file's content",
  ignore: !HAVE_TMUX,
  async fn() {
    await withReview(async (w) => {
      assertEquals((await cli(["project", "trust", ...w.opts], { cwd: w.repo })).code, 0);
    }, async (t) => {
      await t.keys("/", ..."guard.py".split(""), "Enter");
      await t.waitFor((x) => x.includes("python3 .mind/guard.py") && x.includes("1 of 1"), "the guard selected");
      await t.keys("End");
      const d = await t.waitFor((x) => x.includes("GUARD-BODY"), "the pinned file's content in the details");
      assert(d.includes(".mind/guard.py (3 lines)"), d);
      await t.keys("t");
      await t.waitFor((x) => x.includes("Trust 1 hook?"), "the confirmation");
      await t.keys("End");
      const c = await t.waitFor((x) => x.includes("GUARD-BODY"), "the pinned file's content in the confirmation");
      assert(c.includes("y or Enter trusts exactly this"), c);
      await t.keys("n");
    });
  },
});
