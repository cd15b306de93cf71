/**
 * `review` and `list` as issue 24 asks (SPEC §14 r3), in a real terminal (tmux) at 80×24 and 120×40
 * (and more widths where a width matters), with the 35-hook project of fixtures/review/project35:
 * no cell is ever lost (the last column at many widths); an untrusted project with hooks names them
 * and the one key that loads them; a broken trust store offers no trust key; the trust-all
 * confirmation opens with a one-screen summary and End jumps to its end; one changed shared file is
 * one entry, one diff, one re-trust; 35 hooks have a position, `/` search, `n`, event groups and a
 * file header that stays; paths relative and times local; and the whole set is reviewed and trusted
 * in under 10 keys.
 *
 * Without tmux these tests are skipped with a printed reason.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import { denoDir } from "./helpers/cli.ts";
import {
  cli,
  listJson,
  makeWorld,
  read,
  Tmux,
  tmuxAvailable,
  useProject35,
  type World,
} from "../fixtures/review/harness.ts";

const HAVE_TMUX = await tmuxAvailable();
if (!HAVE_TMUX) console.log("review_scale_tmux_test: tmux is not installed; skipping");

/** The two sizes every screen is checked at. */
const SIZES = [{ cols: 80, rows: 24 }, { cols: 120, rows: 40 }] as const;

/** The screen's lines, the trailing spaces tmux pads with dropped. */
const linesOf = (screen: string) => screen.split("\n").map((l) => l.trimEnd());
/** The screen as one line: wrapped text joined, runs of spaces as one. */
const flat = (screen: string) => screen.replace(/\s+/g, " ");

/** A world whose repository is the 35-hook fixture project. */
async function world35(): Promise<World> {
  const w = await makeWorld();
  await useProject35(w);
  return w;
}

/** A tmux driver that counts the keys sent. */
class Counted {
  keys = 0;
  constructor(readonly t: Tmux) {}
  async send(...keys: string[]): Promise<void> {
    this.keys += keys.length;
    await this.t.keys(...keys);
  }
}

async function startReview(w: World, size: { cols: number; rows: number }, env: Record<string, string> = {}) {
  const t = await Tmux.start(w, ["review", ...w.opts], { ...size, env: { NO_COLOR: "1", ...env } });
  await t.waitFor((x) => x.includes("mind-hooks review ·"), `the review screen at ${size.cols}x${size.rows}`);
  return t;
}

async function userState(w: World): Promise<string> {
  return await read(`${w.home}/config.toml`).catch(() => "");
}

Deno.test({
  name: "review (tmux): no cell is lost at any width — a full row keeps its last cell, a cut row ends in …",
  ignore: !HAVE_TMUX,
  async fn() {
    // 200 columns lays the panes side by side; odd widths catch an off-by-one.
    const sizes = [[80, 24], [120, 40], [200, 50], [81, 24], [97, 31], [133, 41], [181, 45]];
    const LONG = `echo ${"abcdefghij".repeat(30)}.end`;
    for (const [cols, rows] of sizes) {
      const w = await makeWorld();
      const write = (fill: string) =>
        Deno.writeTextFile(
          `${w.home}/hooks.json`,
          JSON.stringify({
            hooks: {
              PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: LONG }] }],
              PostToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: fill }] }],
            },
          }),
        );
      await write("echo FILL");
      const t = await startReview(w, { cols, rows });
      try {
        const paneEnd = (line: string) => (line.indexOf(" │ ") >= 0 ? line.indexOf(" │ ") : cols);
        let lines = (await t.screen()).split("\n");
        const fillRow = lines.find((l) => l.includes("echo FILL"))!;
        // A command that ends exactly at the list pane's last column.
        const fill = `echo ${"x".repeat(paneEnd(fillRow) - fillRow.indexOf("echo FILL") - 6)}Z`;
        await write(fill);
        await t.keys("r");
        const s = await t.waitFor((x) => x.includes("xZ") && x.includes("reloaded"), `${cols}: the filled row`);
        lines = s.split("\n");
        const full = lines.find((l) => l.includes("xZ"))!;
        assertEquals(full.slice(0, paneEnd(full)).trimEnd().slice(-fill.length), fill, `${cols}x${rows}:\n${s}`);
        assertEquals(full.slice(0, paneEnd(full)).trimEnd().length, paneEnd(full), `${cols}: the last column`);
        const cut = lines.find((l) => l.includes("abcdefghij"))!;
        const cutPane = cut.slice(0, paneEnd(cut));
        assert(cutPane.length === paneEnd(cut) && cutPane.endsWith("…"), `${cols}: the cut row ends in …:\n${s}`);
        // The details show the whole command, wrapped: not one character lost at the pane's edge.
        const detail = (l: string) => (l.indexOf(" │ ") >= 0 ? l.slice(l.indexOf(" │ ") + 3) : l.slice(1));
        const body = lines.map(detail);
        const at = body.findIndex((l) => l.startsWith("Command   echo abc"));
        assert(at >= 0, `${cols}: the command field:\n${s}`);
        let shown = body[at].slice(10);
        for (const l of body.slice(at + 1)) {
          if (!l.startsWith(" ".repeat(10)) || l.trim() === "") break;
          shown += l.slice(10).trimEnd();
        }
        assertEquals(shown.trimEnd(), LONG, `${cols}x${rows}: the command in the details:\n${s}`);
        // The title and legend rows are exactly as wide as the terminal (no row wraps or loses a cell).
        for (const l of lines) assert(l.length <= cols, `${cols}: a row wider than the terminal: ${l}`);
      } finally {
        await t.kill();
        await w.cleanup();
      }
    }
  },
});

Deno.test({
  name: "review and list (tmux): an untrusted project names its layers and hook counts and the one action",
  ignore: !HAVE_TMUX,
  async fn() {
    for (const size of SIZES) {
      const w = await world35();
      await Deno.mkdir(`${w.repo}/.claude`);
      await Deno.writeTextFile(
        `${w.repo}/.claude/settings.json`,
        JSON.stringify({
          hooks: {
            Stop: [{ hooks: [{ type: "command", command: "echo a" }, { type: "command", command: "echo b" }] }],
          },
        }),
      );
      const t = await startReview(w, size);
      try {
        let s = await t.screen();
        assert(!s.includes("No hooks are configured"), s);
        assert(s.includes(`project ${w.repo}: NOT trusted · p trusts it`), s);
        assert(flat(s).includes(`No hook is loaded: the project ${w.repo} is not trusted.`), s);
        assert(flat(s).includes("It holds 37 hooks, none of them loaded or run"), s);
        assert(/\.mind\/\s+35 hooks\s+\(\.mind\/hooks\.json\)/.test(s), s);
        assert(/\.claude\/\s+2 hooks\s+\(\.claude\/settings\.json\)/.test(s), s);
        assert(flat(s).includes("Press p to trust the project"), s);
        // Counting trusted nothing and ran nothing.
        assertEquals(await userState(w), "");
        await t.keys("p");
        s = await t.waitFor((x) => x.includes("37 hooks, 37 need review"), "p loads them");
        assert(s.includes("[untrusted]"), s);
      } finally {
        await t.kill();
        await w.cleanup();
      }
    }
    // list names them the same way, and --json holds the counts.
    const w = await world35();
    try {
      const r = await cli(["list", ...w.opts], { cwd: w.repo });
      assertEquals(r.code, 0, r.stderr);
      assert(
        r.stdout.includes(
          `project ${w.repo}: NOT trusted — 35 hooks not loaded: .mind/ 35 hooks (.mind/hooks.json)\n` +
            `  to load them (each still needs your trust to run): mind-hooks project trust ${w.repo}\n`,
        ),
        r.stdout,
      );
      assert(!r.stdout.includes("no hooks configured"), r.stdout);
      const data = await listJson(w);
      assertEquals((data.project as unknown as { layers: unknown }).layers, [
        { folder: ".mind", layer: "project", hooks: 35, files: [`${w.repo}/.mind/hooks.json`] },
      ]);
      assertEquals(await userState(w), "");
    } finally {
      await w.cleanup();
    }
  },
});

Deno.test({
  name: "review (tmux): with a broken trust store no key that writes trust is offered, in the legend or the help",
  ignore: !HAVE_TMUX,
  async fn() {
    for (const size of SIZES) {
      const w = await world35();
      const broken = `[projects."${w.repo}"]\ntrust_level = "trusted"\n[hooks.state."k"]]\n`;
      await Deno.writeTextFile(`${w.home}/config.toml`, broken);
      await Deno.writeTextFile(
        `${w.home}/hooks.json`,
        `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo user-hook"}]}]}}`,
      );
      const t = await startReview(w, size);
      try {
        let s = await t.screen();
        // The fix is never cut away: the line wraps.
        assert(flat(s).includes("trust state unreadable, only managed hooks can run — fix the file"), s);
        const legend = linesOf(s).filter((l) => l !== "").slice(-2).join("\n");
        for (const offered of ["t trust", "A trust all", "p trust", "e/d", "u untrust"]) {
          assert(!legend.includes(offered), `${size.cols}: the legend offers ${offered}:\n${s}`);
        }
        assert(legend.includes("/ search") && legend.includes("q quit"), legend);
        // Nor advised in the details.
        assert(!s.includes("(t)") && !s.includes("press p") && !s.includes("e enables"), s);
        await t.keys("?");
        s = await t.waitFor((x) => x.includes("reload everything"), "the help");
        for (const k of ["t / u", "e / d", "  A ", "  p "]) {
          assert(!s.includes(k), `${size.cols}: help offers ${k}:\n${s}`);
        }
        assert(flat(s).includes("No key writes trust until the file is fixed"), s);
        await t.keys("Escape");
        // Pressed anyway, they refuse and write nothing.
        for (const key of ["t", "A", "p"]) {
          await t.keys(key);
          await t.waitFor((x) => x.includes("; nothing written"), `the refusal of ${key}`);
        }
        assertEquals(await userState(w), broken);
      } finally {
        await t.kill();
        await w.cleanup();
      }
    }
  },
});

Deno.test({
  name: "review (tmux): the trust-all confirmation opens with a one-screen summary; End goes to its end",
  ignore: !HAVE_TMUX,
  async fn() {
    for (const size of SIZES) {
      const w = await world35();
      assertEquals((await cli(["project", "trust", w.repo, ...w.opts])).code, 0);
      const hooks = (await listJson(w)).hooks;
      const pinned = new Set(
        hooks.flatMap((h) => (h.pinnedFiles as { path: string }[] | null ?? []).map((f) => f.path)),
      );
      // The last hook's closure (SPEC §3.5 r4: its own, not its folder's), named once by the first that shares it.
      const lastPins = (hooks.at(-1)?.pinnedFiles as unknown[] | null ?? []).length;
      const t = await startReview(w, size);
      try {
        await t.keys("A");
        let s = await t.waitFor((x) => x.includes("Trust 35 hooks?"), "the confirmation");
        // The summary, whole, on the first screen: counts, file, pinned files, the network hook by its command.
        const f = flat(s);
        assert(f.includes("35 hooks on 5 events: PreToolUse 18, PostToolUse 9, UserPromptSubmit 3, SessionStart 3"), s);
        assert(f.includes("from 1 file: .mind/hooks.json (35)"), s);
        assert(f.includes(`${pinned.size} pinned files`), s);
        assert(f.includes("⚠ 1 hook fetches code from the network when run (not pinned):"), s);
        assert(s.includes("curl -fsSL https://example.com/hooks/bootstrap.sh | sh"), s);
        assert(f.includes("y or Enter trusts all 35"), s);
        // Then the details, paged; End: the last hook and the answer line.
        assert(s.includes("1/35. python3 .mind/hook_00.py --flag 0"), s);
        assert(/↓ \d+ more lines: PgDn pages, End goes to the end/.test(s), s);
        await t.keys("PageDown");
        s = await t.waitFor((x) => !x.includes("Trust 35 hooks?"), "PgDn pages");
        await t.keys("End");
        s = await t.waitFor((x) => x.includes("35/35. python3 .mind/hook_32.py"), "End");
        assert(s.includes("y or Enter trusts exactly this"), s);
        // A pin set already shown is named, not repeated.
        assert(s.includes(`the same ${lastPins} files as 1/35`), s);
        await t.keys("Home");
        await t.waitFor((x) => x.includes("Trust 35 hooks?"), "Home: the summary again");
        await t.keys("Escape");
        await t.waitFor((x) => x.includes("cancelled: nothing was trusted"), "cancelled");
      } finally {
        await t.kill();
        await w.cleanup();
      }
    }
    // trust --all prints the same summary, then one line per hook: key tail and command.
    const w = await world35();
    try {
      assertEquals((await cli(["project", "trust", w.repo, ...w.opts])).code, 0);
      const pinnedAll = new Set(
        (await listJson(w)).hooks.flatMap((h) => (h.pinnedFiles as { path: string }[] | null ?? []).map((f) => f.path)),
      );
      const r = await cli(["trust", "--all", ...w.opts], { cwd: w.repo });
      assertEquals(r.code, 0, r.stderr);
      const lines = r.stdout.trimEnd().split("\n");
      // SPEC §3.5 r4: a fetcher is unpinnable too, so `curl … | sh` is named under both marks.
      const head = lines.findIndex((l) => l.startsWith("  .mind/hooks.json:"));
      assertEquals(lines.slice(0, 6), [
        "trusted 35 hooks on 5 events: PreToolUse 18, PostToolUse 9, UserPromptSubmit 3, SessionStart 3, Stop 2",
        "  from 1 file: .mind/hooks.json (35)",
        `  ${pinnedAll.size} pinned files (trust also covers their content)`,
        "  ⚠ 1 hook fetches code from the network when run (not pinned):",
        "    curl -fsSL https://example.com/hooks/bootstrap.sh | sh   (curl)",
        "  ⚠ 2 hooks run files mind-hooks cannot tell (not pinned):",
      ]);
      const unpinnable = lines.slice(6, head);
      assertEquals(unpinnable.length, 2, r.stdout);
      assert(unpinnable.includes('    sh ".mind/$(printf format).sh"   ($(printf format))'), r.stdout);
      assert(
        unpinnable.some((l) => l.startsWith("    curl -fsSL https://example.com/hooks/bootstrap.sh | sh")),
        r.stdout,
      );
      assertEquals(lines.length, head + 35);
      assertEquals(lines[head], "  .mind/hooks.json:PreToolUse:0:0  python3 .mind/hook_00.py --flag 0");
      assert(lines.slice(head).every((l) => /^ {2}\.mind\/hooks\.json:[A-Za-z]+:\d+:0 {2}\S/.test(l)), r.stdout);
    } finally {
      await w.cleanup();
    }
  },
});

Deno.test({
  name: "review and list (tmux): one changed shared file is one entry, one diff, and one trust re-trusts the group",
  ignore: !HAVE_TMUX,
  async fn() {
    for (const size of SIZES) {
      const w = await world35();
      assertEquals((await cli(["project", "trust", w.repo, ...w.opts])).code, 0);
      assertEquals((await cli(["trust", "--all", ...w.opts], { cwd: w.repo })).code, 0);
      await Deno.writeTextFile(`${w.repo}/.mind/lib/policy.py`, "\n# a new rule\n", { append: true });
      const modified = (await listJson(w)).hooks.filter((h) => h.status === "modified");
      const grouped = modified.length;
      const groupPins = (modified[0]?.pinnedFiles as unknown[] | null ?? []).length;
      assert(grouped >= 33, `every Python hook pins .mind/: ${grouped}`);
      // list: the change once, then each hook says it briefly.
      const list = await cli(["list", ...w.opts], { cwd: w.repo });
      assert(list.stdout.includes(`changed since trusted`), list.stdout);
      assert(list.stdout.includes(`\n  .mind/lib/policy.py changed — ${grouped} hooks\n`), list.stdout);
      // The shared pin set and its closure (SPEC §3.5 r4) are each printed once, for the group's first hook.
      const naming = list.stdout.split("\n").filter((l) => l.includes(".mind/hook_07.py,"));
      assertEquals(naming.map((l) => l.trimStart().split(" ")[0]), ["pinned", "closure:"], list.stdout);
      assert(
        list.stdout.includes(
          `    ${groupPins} pinned files (same as ${grouped - 1} others); .mind/lib/policy.py changed\n`,
        ),
      );
      const c = new Counted(await startReview(w, size));
      try {
        let s = await c.t.screen();
        assert(s.includes("── changed since trusted"), s);
        assert(s.includes(`> [modified] ▸ .mind/lib/policy.py changed — ${grouped} hooks`), s);
        // One diff, in the details of the one entry, and its time as local time and age.
        assert(s.includes("+ # a new rule"), s);
        assertEquals(s.split("+ # a new rule").length, 2, s);
        assert(/policy\.py: changed since trusted \d{4}-\d\d-\d\d \d\d:\d\d \(\d+ (s|min) ago\)/.test(flat(s)), s);
        await c.send("t");
        s = await c.t.waitFor((x) => x.includes(`Trust ${grouped} hooks?`), "the group's confirmation");
        await c.send("y");
        await c.t.waitFor((x) => x.includes(`trusted ${grouped} hooks`), "the group re-trusted");
        assertEquals(c.keys, 2);
        const after = (await listJson(w)).hooks;
        assertEquals(after.filter((h) => h.status !== "trusted").length, 0);
      } finally {
        await c.t.kill();
        await w.cleanup();
      }
    }
  },
});

Deno.test({
  name: "review (tmux): 35 hooks — position, ↓ N more, event groups, a file header that stays, / search, n",
  ignore: !HAVE_TMUX,
  async fn() {
    for (const size of SIZES) {
      const w = await world35();
      assertEquals((await cli(["project", "trust", w.repo, ...w.opts])).code, 0);
      // Trust a few, so that `n` has something to skip.
      for (const k of ["PreToolUse:1:0", "PreToolUse:2:0"]) {
        assertEquals((await cli(["trust", k, ...w.opts], { cwd: w.repo })).code, 0);
      }
      const t = await startReview(w, size);
      try {
        let s = await t.screen();
        assert(/── 1\/35 · ↓ \d+ more/.test(s), s);
        assert(s.includes("PreToolUse — before a tool runs; can deny or rewrite the call"), s);
        for (let i = 0; i < 20; i++) await t.keys("j");
        s = await t.waitFor((x) => /── 21\/35 · ↑ \d+ more · ↓ \d+ more/.test(x), "21/35");
        const lines = linesOf(s);
        // The file header and the event header stay on top of the list.
        assertEquals(lines[2], "── project  .mind/hooks.json", s);
        assert(/^ {2}(PreToolUse|PostToolUse) — /.test(lines[3]), s);
        assert(s.includes("> [untrusted] on  Edit|Write python3 .mind/hook_20.py --flag 20"), s);
        // / searches commands, keys and files.
        await t.keys("/", "hook_27", "Enter");
        s = await t.waitFor((x) => x.includes("/hook_27: 1 of 1"), "the search");
        assert(/> \[untrusted\] on\s+\S+\s+python3 \.mind\/hook_27\.py --flag 27/.test(s), s);
        await t.keys("/", "Stop:1:0", "Enter");
        s = await t.waitFor((x) => x.includes("/Stop:1:0: 1 of 1"), "a key tail");
        assert(s.includes("Key       .mind/hooks.json:Stop:1:0"), s);
        await t.keys("/", "nothing-like-this", "Enter");
        await t.waitFor((x) => x.includes("no hook matches"), "no match");
        // n: the next hook needing review, skipping the trusted ones.
        await t.keys("g", "n");
        s = await t.waitFor((x) => x.includes("── 4/35"), "n skips the two trusted hooks");
        assert(s.includes("> [untrusted] on  Bash       python3 .mind/hook_03.py"), s);
      } finally {
        await t.kill();
        await w.cleanup();
      }
    }
  },
});

Deno.test({
  name: "review (tmux): paths relative to the project root or with ~; list too; --json keeps them absolute",
  ignore: !HAVE_TMUX,
  async fn() {
    for (const size of SIZES) {
      const w = await world35();
      assertEquals((await cli(["project", "trust", w.repo, ...w.opts])).code, 0);
      // The OS user's home is the world's root: the repository is ~/repo.
      // Deno finds its module cache from HOME: keep it.
      const t = await startReview(w, size, { HOME: w.root, DENO_DIR: denoDir() });
      try {
        const s = await t.screen();
        assert(s.includes(" project ~/repo: trusted"), s);
        assert(s.includes("Key       .mind/hooks.json:PreToolUse:0:0"), s);
        assert(s.includes("File      .mind/hooks.json:8"), s);
        assert(!s.includes(w.root), `an absolute path on screen:\n${s}`);
      } finally {
        await t.kill();
      }
      const r = await cli(["list", ...w.opts], { cwd: w.repo, env: { HOME: w.root, DENO_DIR: denoDir() } });
      assert(
        r.stdout.includes("project ~/repo: trusted\n") && r.stdout.includes("\nproject  .mind/hooks.json\n"),
        r.stdout,
      );
      assert(r.stdout.includes("\n  .mind/hooks.json:PreToolUse:0:0\n"), r.stdout);
      const data = await listJson(w);
      assertEquals([data.project?.root, data.hooks[0].key, data.hooks[0].source], [
        w.repo,
        `project:${w.repo}/.mind/hooks.json:PreToolUse:0:0`,
        `${w.repo}/.mind/hooks.json`,
      ]);
      await w.cleanup();
    }
  },
});

Deno.test({
  name: "review (tmux): the 35-hook project is reviewed and trusted at 80×24 in under 10 keys",
  ignore: !HAVE_TMUX,
  async fn() {
    const w = await world35();
    const c = new Counted(await startReview(w, { cols: 80, rows: 24 }));
    try {
      await c.send("p");
      await c.t.waitFor((x) => x.includes("35 hooks, 35 need review"), "the project's hooks");
      await c.send("A");
      const s = await c.t.waitFor((x) => x.includes("Trust 35 hooks?"), "the summary");
      assert(s.includes("curl -fsSL https://example.com/hooks/bootstrap.sh | sh"), s);
      await c.send("y");
      await c.t.waitFor((x) => x.includes("trusted 35 hooks") && x.includes("35 hooks, 0 need review"), "trusted");
      await c.send("q");
      await c.t.waitFor((x) => x.includes("EXIT=0"), "quit");
      assert(c.keys < 10, `${c.keys} keys`);
      assertEquals((await listJson(w)).hooks.map((h) => h.status), Array(35).fill("trusted"));
    } finally {
      await c.t.kill();
      await w.cleanup();
    }
  },
});
