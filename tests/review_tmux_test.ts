/**
 * `mind-hooks review` driven for real in tmux (SPEC §14): keys go in with
 * `send-keys`, the screen comes back with `capture-pane`, and what each
 * action wrote is read from the user config.toml. Also: without a terminal it
 * exits 1 pointing at `list` and `trust`; the terminal is restored on quit,
 * Ctrl-C and SIGTERM; NO_COLOR leaves colours out; a narrow terminal stacks
 * the panes and still shows the key legend.
 *
 * Without tmux these tests are skipped with a printed reason (CI installs it).
 */
import { assert, assertEquals, assertMatch, assertNotMatch } from "./helpers/assert.ts";
import { parse as parseToml } from "smol-toml";
import { parseKeys } from "../src/review/keys.ts";
import { cli, listJson, makeWorld, read, Tmux, tmuxAvailable, type World } from "../fixtures/review/harness.ts";

const HAVE_TMUX = await tmuxAvailable();
if (!HAVE_TMUX) console.log("review_tmux_test: tmux is not installed; skipping the interactive review tests");

type State = { enabled?: boolean; trusted_hash?: string };
async function userConfig(
  w: World,
): Promise<{ hooks?: { state?: Record<string, State> }; projects?: Record<string, unknown> }> {
  try {
    // Plain objects (smol-toml builds null-prototype ones), so deepEqual compares values only.
    return JSON.parse(JSON.stringify(parseToml(await read(`${w.home}/config.toml`))));
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return {};
    throw e;
  }
}

/** An SGR sequence (as tmux re-encodes it) holding the parameter `code`. */
function sgr(code: string): RegExp {
  return new RegExp(`\u001b\\[(?:\\d+;)*${code}(?:;\\d+)*m`);
}

/** Waits for the exit line and the terminal modes printed after it. */
function waitExit(t: Tmux): Promise<string> {
  return t.waitFor((x) => x.includes("EXIT=") && /icanon/.test(x.slice(x.indexOf("EXIT="))), "the exit");
}

/** The terminal modes line printed after the CLI exits: canonical mode and echo are back on. */
function assertTerminalRestored(screen: string, exit: number): void {
  assert(screen.includes(`EXIT=${exit}`), screen);
  assert(!screen.includes("mind-hooks review ·"), `still on the review screen:\n${screen}`);
  const modes = screen.slice(screen.indexOf(`EXIT=${exit}`));
  assertMatch(modes, /(^|\s)icanon(\s|$)/);
  assertMatch(modes, /(^|\s)echo(\s|$)/);
  assertNotMatch(modes, /-icanon|(^|\s)-echo(\s|$)/);
}

Deno.test("review keys: arrows, pages, Home/End in both encodings; unknown sequences are swallowed whole", () => {
  const bytes = (s: string) => new TextEncoder().encode(s);
  assertEquals(parseKeys(bytes("\x1b[A\x1b[B\x1bOA\x1bOB")), ["up", "down", "up", "down"]);
  assertEquals(parseKeys(bytes("\x1b[5~\x1b[6~\x1b[H\x1b[F\x1b[1~\x1b[4~")), [
    "pageup",
    "pagedown",
    "home",
    "end",
    "home",
    "end",
  ]);
  // Bracketed-paste markers and a mouse report must not read as `t`, `0` or `~`.
  assertEquals(parseKeys(bytes("\x1b[200~t\x1b[201~\x1b[<0;12;5M")), ["t"]);
  assertEquals(parseKeys(bytes("jkq\x03\x04\x1b")), ["j", "k", "q", "ctrl-c", "ctrl-d", "escape"]);
  assertEquals(parseKeys(bytes("é\x07")), [], "non-ASCII text and other controls mean nothing");
});

Deno.test("review: without a terminal it exits 1 and points at list and trust", async () => {
  const w = await makeWorld();
  try {
    const r = await cli(["review", ...w.opts], { cwd: w.repo, stdin: "" });
    assertEquals(r.code, 1);
    assertEquals(r.stdout, "");
    assertEquals(r.stderr.split("\n").length, 2, r.stderr);
    assertMatch(r.stderr, /^mind-hooks: review needs an interactive terminal; .*mind-hooks list.*mind-hooks trust/);
  } finally {
    await w.cleanup();
  }
});

Deno.test({
  name: "review (tmux): trust one, disable one, trust all, trust the project, managed read-only, quit",
  ignore: !HAVE_TMUX,
  async fn() {
    const w = await makeWorld();
    const req = `${w.root}/requirements.toml`;
    await Deno.writeTextFile(req, `[[hooks.Stop]]\nhooks = [{ type = "command", command = "echo managed-policy" }]\n`);
    await Deno.writeTextFile(
      `${w.home}/config.toml`,
      `# keep this comment
[[hooks.PreToolUse]]
matcher = "Bash"
hooks = [{ type = "command", command = "echo first-hook" }]

[[hooks.PostToolUse]]
matcher = "Edit|Write"
hooks = [{ type = "command", command = "echo second-hook" }]

[[hooks.SessionStart]]
hooks = [{ type = "mcp_tool", server = "notes", tool = "load" }]
`,
    );
    await Deno.writeTextFile(
      `${w.repo}/.mind/hooks.json`,
      `{"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "echo project-hook"}]}]}}`,
    );
    const opts = ["--home", w.home, "--requirements", req];
    const cfg = `${w.home}/config.toml`;
    const k1 = `user:${cfg}:PreToolUse:0:0`;
    const k2 = `user:${cfg}:PostToolUse:0:0`;
    const k3 = `user:${cfg}:SessionStart:0:0`;
    const t = await Tmux.start(w, ["review", ...opts]);
    try {
      let s = await t.waitFor((x) => x.includes("mind-hooks review ·"), "the review screen");
      // The list names what runs (never "Hook 1..N"), with status badges, under its event and the
      // event's meaning; the managed hook comes first.
      assertMatch(s, /> \[managed\]\s+on\s+\*\s+echo managed-policy/);
      assertMatch(
        s,
        /PreToolUse — before a tool runs; can deny or rewrite the call\n\s+\[untrusted\] on\s+Bash\s+echo first-hook/,
      );
      assertMatch(s, /PostToolUse — after a tool ran.*\n\s+\[untrusted\] on\s+Edit\|Write\s+echo second-hook/);
      assertMatch(s, /SessionStart — .*\n\s+\[untrusted\] on\s+\*\s+mcp_tool notes\/load/);
      assertNotMatch(s, /Hook \d/);
      assert(s.includes(`project ${w.repo}: NOT trusted`), s);
      assert(!s.includes("project-hook"), "an untrusted project's hooks are not loaded");
      assert(s.includes("3 hooks need review") || s.includes("3 need review"), s);
      assert(s.includes("t trust") && s.includes("A trust all") && s.includes("q quit"), s);
      // Details of the selected (managed) hook: file and line, status, coverage, hash.
      assert(s.includes(`File      ${req}:2`), s);
      assertMatch(s, /Status\s+managed/);
      assertMatch(s, /Coverage\s+client-only/);

      // Managed hooks are read-only: a message, nothing written.
      await t.keys("t");
      s = await t.waitFor(
        (x) => x.includes("managed hooks (requirements.toml) are read-only"),
        "the read-only message",
      );
      assertEquals((await userConfig(w)).hooks?.state, undefined);

      // Trust the first user hook.
      const before = await listJson(w, ["--requirements", req]);
      const hash = (key: string) => before.hooks.find((h) => h.key === key)!.hash as string;
      await t.keys("Down");
      s = await t.waitFor((x) => x.includes("Command   echo first-hook"), "the first hook's details");
      assert(s.includes(`File      ${cfg}:4`), s);
      assertMatch(s, /Coverage\s+client-full/);
      assert(s.includes(`Hash      ${hash(k1)}`), s);
      assertMatch(s, /Trusted\s+\(none\)/);
      await t.keys("t");
      await t.waitFor((x) => x.includes("Trust 1 hook?"), "the confirmation");
      await t.keys("y");
      // Keys show as their tails (the shortest one `trust` accepts).
      s = await t.waitFor((x) => x.includes(`trusted config.toml:PreToolUse:0:0`), "the trust message");
      assertMatch(s, /> \[trusted\]\s+on\s+Bash/);
      assert(s.includes(`Trusted   ${hash(k1)}`), s);
      let state = (await userConfig(w)).hooks!.state!;
      assertEquals(state, { [k1]: { trusted_hash: hash(k1) } });
      assert((await read(cfg)).startsWith("# keep this comment\n"), "the user's comment is kept");

      // Disable the second one.
      await t.keys("j", "d");
      s = await t.waitFor((x) => x.includes(`disabled config.toml:PostToolUse:0:0`), "the disable message");
      assertMatch(s, /> \[untrusted\] off Edit\|Write/);
      state = (await userConfig(w)).hooks!.state!;
      assertEquals(state[k2], { enabled: false });

      // Trust all needing review: the second (still disabled) and the third.
      await t.keys("A");
      await t.waitFor((x) => x.includes("Trust 2 hooks?"), "the confirmation");
      await t.keys("Enter");
      s = await t.waitFor((x) => x.includes("trusted 2 hooks"), "the trust-all message");
      assert(s.includes("0 need review"), s);
      state = (await userConfig(w)).hooks!.state!;
      assertEquals(state, {
        [k1]: { trusted_hash: hash(k1) },
        [k2]: { enabled: false, trusted_hash: hash(k2) },
        [k3]: { trusted_hash: hash(k3) },
      });
      assertMatch(s, /\[trusted\]\s+off Edit\|Write/);

      // Trust the project: its hook appears, untrusted.
      await t.keys("p");
      s = await t.waitFor((x) => x.includes(`trusted project ${w.repo}`), "the project message");
      assert(s.includes(`project ${w.repo}: trusted`), s);
      assertMatch(s, /\[untrusted\] on\s+\*\s+echo project-hook/);
      assert(s.includes("p untrust project"), s);
      const projects = (await userConfig(w)).projects!;
      assertEquals(projects, { [w.repo]: { trust_level: "trusted" } });

      // What review shows is what list reads from disk.
      const after = await listJson(w, ["--requirements", req]);
      assertEquals(
        after.hooks.map((h) => [h.key, h.status, h.enabled]),
        [
          [`managed:${req}:Stop:0:0`, "managed", true],
          [k1, "trusted", true],
          [k2, "trusted", false],
          [k3, "trusted", true],
          [`project:${w.repo}/.mind/hooks.json:UserPromptSubmit:0:0`, "untrusted", true],
        ],
      );

      // Quit: the terminal is given back as it was.
      await t.keys("q");
      s = await waitExit(t);
      assertTerminalRestored(s, 0);
    } finally {
      await t.kill();
      await w.cleanup();
    }
  },
});

Deno.test({
  name: "review (tmux): narrow terminal, NO_COLOR, warnings view; Ctrl-C restores the terminal",
  ignore: !HAVE_TMUX,
  async fn() {
    const w = await makeWorld();
    await Deno.writeTextFile(
      `${w.home}/config.toml`,
      `[[hooks.Stop]]\nhooks = [{ type = "command", command = "echo narrow", colour = "x" }]\n` +
        // A hostile command trying to clear the screen and write over it.
        `[[hooks.SessionEnd]]\nhooks = [{ type = "command", command = "rm -rf ~\\u001b[2J\\u001b[HFAKE" }]\n`,
    );
    const t = await Tmux.start(w, ["review", ...w.opts], { cols: 80, rows: 24, env: { NO_COLOR: "1" } });
    try {
      let s = await t.waitFor((x) => x.includes("mind-hooks review ·"), "the review screen");
      const lines = s.split("\n");
      // Stacked panes: the list row spans the width, the details are below a rule, the legend is at the bottom.
      // The hook a warning is about carries a `!` before its status.
      assertMatch(s, />!\[untrusted\] on\s+\*\s+echo narrow/);
      assert(lines.some((l) => /^── 1\/2 ─+ \/ search · n next to review ──$/.test(l.trimEnd())), s);
      assert(s.includes("Command   echo narrow"), s);
      assert(lines.slice(-4).join("\n").includes("q quit"), s);
      assert(s.includes("rm -rf ~\\x1b[2J\\x1b[HFAKE"), "escape sequences are shown, not obeyed");
      // No colour under NO_COLOR (reverse video and bold are not colour and stay).
      const painted = await t.screen(true);
      assertNotMatch(painted, sgr("3[0-7]"));
      assertMatch(painted, sgr("7"));
      // G / g / j / k move the selection (PgUp/PgDn and Home/End page the details: review_ux_tmux_test).
      await t.keys("G");
      s = await t.waitFor((x) => /> \[untrusted\] on\s+\*\s+rm -rf/.test(x), "G");
      assertMatch(s, /Command\s+rm -rf/);
      await t.keys("g");
      await t.waitFor((x) => />!\[untrusted\] on\s+\*\s+echo narrow/.test(x), "g");
      await t.keys("j");
      await t.waitFor((x) => /> \[untrusted\] on\s+\*\s+rm -rf/.test(x), "j");
      await t.keys("k");
      await t.waitFor((x) => />!\[untrusted\] on\s+\*\s+echo narrow/.test(x), "k");
      // The warnings view lists the discovery warnings with line and column.
      await t.keys("w");
      s = await t.waitFor((x) => x.includes("Warnings (2)"), "the warnings view");
      const joined = s.replace(/\n\s+/g, " ");
      assert(joined.includes(`config.toml:2:55: Stop[0].hooks[0]: unknown field "colour"`), s);
      assert(joined.includes(`W_PROJECT_UNTRUSTED ${w.repo}/.mind: project ${w.repo} is not trusted`), s);
      await t.keys("C-c");
      s = await waitExit(t);
      assertTerminalRestored(s, 130);
    } finally {
      await t.kill();
      await w.cleanup();
    }
  },
});

Deno.test({
  name: "review (tmux): colours by default; SIGTERM from outside restores the terminal",
  ignore: !HAVE_TMUX,
  async fn() {
    const w = await makeWorld();
    await Deno.writeTextFile(
      `${w.home}/config.toml`,
      `[[hooks.Stop]]\nhooks = [{ type = "command", command = "echo colours" }]\n`,
    );
    const t = await Tmux.start(w, ["review", ...w.opts]);
    try {
      await t.waitFor((x) => x.includes("mind-hooks review ·"), "the review screen");
      assertMatch(await t.screen(true), sgr("33"), "the untrusted badge is yellow");
      const pid = await t.childPid();
      assert(pid !== null, "the review process was not found");
      Deno.kill(pid, "SIGTERM");
      const s = await waitExit(t);
      assertTerminalRestored(s, 143);
    } finally {
      await t.kill();
      await w.cleanup();
    }
  },
});
