/**
 * `mind-hooks review` as issue 16 asks, in a real terminal (tmux) at 80×24 and 120×40, checking the
 * screen text: a command column that uses the space it has (at 120 columns the first 40 characters
 * of every command); PgUp/PgDn and Home/End in the details; `?` (and `h`, F1) showing every key,
 * `r` included; a `!` on hooks a warning is about and the dropped handlers listed in their file; the
 * last run of each hook from the observation log; an empty state that says where hooks go; the
 * project message agreeing with the header; a handler's name beside its command.
 *
 * Without tmux these tests are skipped with a printed reason.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import { cli, makeWorld, Tmux, tmuxAvailable, type World } from "../fixtures/review/harness.ts";
import { parseKeys } from "../src/review/keys.ts";

const HAVE_TMUX = await tmuxAvailable();
if (!HAVE_TMUX) console.log("review_ux_tmux_test: tmux is not installed; skipping");

/** The two sizes every case runs at. */
const SIZES = [{ cols: 80, rows: 24 }, { cols: 120, rows: 40 }] as const;

const LONG_A = "python3 /opt/company/hooks/check_dangerous_shell_commands.py --strict --log /var/log/hooks.log";
const LONG_B = 'npx --yes prettier@3.3.3 --write "$(jq -r .tool_input.file_path)" --log-level warn';

/** Runs `fn` with review started in a fresh world at each size. */
async function atEachSize(
  setup: (w: World) => Promise<void>,
  fn: (t: Tmux, w: World, size: { cols: number; rows: number }) => Promise<void>,
  extra: string[] = [],
): Promise<void> {
  for (const size of SIZES) {
    const w = await makeWorld();
    try {
      await setup(w);
      const t = await Tmux.start(w, ["review", ...w.opts, ...extra], { ...size, env: { NO_COLOR: "1" } });
      try {
        await t.waitFor((x) => x.includes("mind-hooks review ·"), `the review screen at ${size.cols}x${size.rows}`);
        await fn(t, w, size);
      } finally {
        await t.kill();
      }
    } finally {
      await w.cleanup();
    }
  }
}

/** The screen's lines, the trailing spaces tmux pads with dropped. */
const linesOf = (screen: string) => screen.split("\n").map((l) => l.trimEnd());
/** The screen as one line: wrapped text joined, runs of spaces as one. */
const flat = (screen: string) => screen.replace(/\s+/g, " ");

Deno.test("review keys: F1 in both encodings", () => {
  const bytes = (s: string) => new TextEncoder().encode(s);
  assertEquals(parseKeys(bytes("\x1bOP\x1b[11~?h")), ["f1", "f1", "?", "h"]);
});

Deno.test({
  name: "review (tmux): the command column uses the space it has; a name follows the command",
  ignore: !HAVE_TMUX,
  async fn() {
    await atEachSize(async (w) => {
      await Deno.writeTextFile(
        `${w.home}/hooks.json`,
        JSON.stringify({
          hooks: {
            PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: LONG_A, name: "No rm -rf" }] }],
            PostToolUse: [{ matcher: "Edit|Write", hooks: [{ type: "command", command: LONG_B }] }],
          },
        }),
      );
    }, async (t, _w, size) => {
      const s = await t.screen();
      const rows = linesOf(s).filter((l) => l.includes("[untrusted]"));
      assertEquals(rows.length, 2, s);
      // At 120 columns each row shows at least the first 40 characters of its command; at 80, 30.
      const need = size.cols >= 120 ? 40 : 30;
      assert(rows[0].includes(LONG_A.slice(0, need)), `${size.cols}: ${rows[0]}`);
      assert(rows[1].includes(LONG_B.slice(0, need)), `${size.cols}: ${rows[1]}`);
      // Columns never run together: a space before the command.
      assert(/Bash +python3/.test(rows[0]) && /Edit\|Write +npx/.test(rows[1]), s);
      // The name is in the details, beside the command, never instead of it.
      assert(s.includes("Name      No rm -rf"), s);
      assert(s.includes(`Command   ${LONG_A.slice(0, size.cols - 20)}`), s);
    });
  },
});

Deno.test({
  name: "review (tmux): PgDn/PgUp page the details, End/Home go to their end/top; [ ] still scroll one line",
  ignore: !HAVE_TMUX,
  async fn() {
    await atEachSize(async (w) => {
      await Deno.writeTextFile(
        `${w.home}/config.toml`,
        `[[hooks.PreToolUse]]\nmatcher = "Bash"\nhooks = [{ type = "command", command = "echo one", statusMessage = "${
          "a long status message ".repeat(12)
        }" }]\n`,
      );
    }, async (t, _w, size) => {
      let s = await t.screen();
      if (size.rows === 40) {
        // It all fits: nothing below.
        assert(
          s.includes("Key       config.toml:") && s.includes("Last run  none logged") && !s.includes("more line"),
          s,
        );
      } else {
        assert(/↓ \d+ more lines: PgDn pages/.test(s), s);
        await t.keys("End");
        s = await t.waitFor((x) => x.includes("Last run  none logged"), "End: the end of the details");
        assert(!s.includes("Key       config.toml:"), `End leaves the top behind:\n${s}`);
        await t.keys("Home");
        await t.waitFor((x) => x.includes("Key       config.toml:"), "Home: the top of the details");
        await t.keys("PageDown");
        await t.waitFor((x) => !x.includes("Key       config.toml:") && x.includes("Status"), "PgDn: the next page");
        await t.keys("PageUp");
        await t.waitFor((x) => x.includes("Key       config.toml:"), "PgUp: back");
        await t.keys("]");
        await t.waitFor((x) => !x.includes("Key       config.toml:") && x.includes("File      "), "] one line");
        await t.keys("[");
        await t.waitFor((x) => x.includes("Key       config.toml:"), "[ one line back");
      }
      // The selection stays where it was: paging is the details' own.
      assert(/> \[untrusted\] on\s+Bash/.test(await t.screen()), s);
    });
  },
});

Deno.test({
  name: "review (tmux): ? h and F1 show every key, r included; Esc, q or another key closes it",
  ignore: !HAVE_TMUX,
  async fn() {
    await atEachSize(async (w) => {
      await Deno.writeTextFile(
        `${w.home}/hooks.json`,
        `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo s"}]}]}}`,
      );
    }, async (t, _w, size) => {
      const legend = await t.screen();
      // The legend keeps to the keys used most (one or two rows at 80 columns); ? shows every key.
      assert(legend.includes("? help") && legend.includes("/ search") && legend.includes("n next to review"), legend);
      const keys = ["↑/↓ j/k g/G", "/ ", "n ", "Enter ← →", "PgUp/PgDn", "t / u", "e / d", "A ", "p "];
      for (const open of ["?", "h", "F1"]) {
        await t.keys(open);
        const s = await t.waitFor((x) => x.includes("Keys") && x.includes("reload everything"), `${open} opens help`);
        for (const k of [...keys, "w ", "r / Ctrl-L", "? / h / F1", "q / Ctrl-D"]) {
          assert(s.includes(`  ${k}`), `${size.cols}: help misses ${k}:\n${s}`);
        }
        assert(flat(s).includes("In the list: ! a warning is about the hook"), s);
        await t.keys(open === "F1" ? "q" : "Escape");
        await t.waitFor((x) => x.includes("Key       hooks.json:"), "closed");
      }
      // q in the help closes the help; q again quits.
      await t.keys("?");
      await t.waitFor((x) => x.includes("reload everything"), "help again");
      await t.keys("q");
      await t.waitFor((x) => x.includes("Key       hooks.json:"), "q closes the help");
      await t.keys("q");
      await t.waitFor((x) => x.includes("EXIT=0"), "q quits");
    });
  },
});

Deno.test({
  name: "review (tmux): ! on hooks with warnings, their warnings in the details, dropped handlers in their file",
  ignore: !HAVE_TMUX,
  async fn() {
    await atEachSize(async (w) => {
      await Deno.writeTextFile(
        `${w.home}/config.toml`,
        `[[hooks.Stop]]\nhooks = [{ type = "command", command = "" }, { type = "command", command = "echo kept", colour = "x" }]\n` +
          `[[hooks.PreTooluse]]\nhooks = [{ type = "command", command = "echo typo" }]\n`,
      );
      await Deno.writeTextFile(`${w.home}/hooks.json`, `{"hooks": {"Stop": [,]}}`);
    }, async (t, w) => {
      let s = await t.waitFor((x) => x.includes("✗ dropped"), "the dropped rows");
      const lines = linesOf(s);
      const at = (part: string) => lines.findIndex((l) => l.includes(part));
      // The kept hook: selected and marked; the file's dropped handler and unknown event below it.
      assert(/^>!\[untrusted\] on\s+\*\s+echo kept/.test(lines[at("echo kept")]), s);
      assert(at("✗ dropped  line 2: Stop[0].hooks[0]: empty or missing command") > at("echo kept"), s);
      assert(at('✗ dropped  line 3: unknown event "PreTooluse"') > at("echo kept"), s);
      // A file with no hook left gets its own header and its dropped line.
      const header = at(`── ${w.home}/hooks.json`);
      assert(header >= 0 && lines[header + 1].includes("✗ dropped  line 1: JSON does not parse: expected a value"), s);
      await t.keys("End");
      s = await t.waitFor((x) => x.includes("Warnings  ! W_UNKNOWN_FIELD"), "the hook's warnings");
      assert(
        flat(s).includes('Warnings ! W_UNKNOWN_FIELD line 2: Stop[0].hooks[1]: unknown field "colour" ignored'),
        s,
      );
    });
  },
});

Deno.test({
  name: "review (tmux): the last run of each hook, from the observation log",
  ignore: !HAVE_TMUX,
  async fn() {
    await atEachSize(async (w) => {
      await Deno.writeTextFile(
        `${w.home}/hooks.json`,
        `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "exit 3"}, {"type": "command", "command": "true"}]}]}}`,
      );
      assertEquals((await cli(["trust", "Stop:0:0", ...w.opts])).code, 0);
      const stop = JSON.stringify({
        session_id: "s",
        transcript_path: null,
        cwd: w.repo,
        hook_event_name: "Stop",
        model: "m",
        turn_id: "t",
        permission_mode: "default",
        stop_hook_active: false,
        last_assistant_message: null,
      });
      assertEquals((await cli(["dispatch", ...w.opts], { cwd: w.repo, stdin: stop })).code, 0);
    }, async (t) => {
      await t.keys("End");
      let s = await t.waitFor((x) => x.includes("Last run  failed"), "the first hook's last run");
      // Local time and age.
      assert(/Last run failed in \d+ ms, \d{4}-\d\d-\d\d \d\d:\d\d \(\d+ s ago\): exit 3/.test(flat(s)), s);
      await t.keys("j");
      await t.waitFor((x) => x.includes("Key       hooks.json:") && x.includes("Stop:0:1"), "the second hook");
      await t.keys("End");
      s = await t.waitFor((x) => x.includes("Last run  skipped"), "the second hook's last run");
      assert(/Last run skipped, \d{4}-\d\d-\d\d \d\d:\d\d \(\d+ s ago\): untrusted/.test(flat(s)), s);
    });
  },
});

Deno.test({
  name: "review (tmux): no hooks: where they go and how to add one; r loads what was added",
  ignore: !HAVE_TMUX,
  async fn() {
    await atEachSize(async () => {}, async (t, w) => {
      const top = flat(await t.screen());
      assert(top.includes("No hooks are configured. Hooks go in a hooks.json"), top);
      await t.keys("End");
      const s = flat(await t.waitFor((x) => x.includes("press r to reload"), "the end of the empty state"));
      for (
        const part of [
          `${w.home}/hooks.json yours, in every project`,
          '"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [',
          "Then press r to reload, and t to trust it.",
          `The project ${w.repo} is not trusted`,
        ]
      ) assert(s.includes(part) || top.includes(part), `misses ${part}:\n${top}\n${s}`);
      await Deno.writeTextFile(
        `${w.home}/hooks.json`,
        `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo added"}]}]}}`,
      );
      await t.keys("r");
      await t.waitFor((x) => /> \[untrusted\] on\s+\*\s+echo added/.test(x), "the added hook");
    });
  },
});

Deno.test({
  name: "review (tmux): trusting the project says what the header says",
  ignore: !HAVE_TMUX,
  async fn() {
    await atEachSize(async (w) => {
      await Deno.writeTextFile(
        `${w.repo}/.mind/hooks.json`,
        `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo a"}, {"type": "command", "command": "echo b"}]}]}}`,
      );
    }, async (t, w) => {
      await t.keys("p");
      let s = await t.waitFor((x) => flat(x).includes("need review (t trusts one, A all)"), "the message");
      assert(s.includes("2 hooks, 2 need review"), s);
      assert(flat(s).includes(`trusted project ${w.repo}: 2 of its hooks need review (t trusts one, A all)`), s);
      await t.keys("A");
      await t.waitFor((x) => x.includes("Trust 2 hooks?"), "the confirmation");
      await t.keys("y");
      await t.waitFor((x) => x.includes("trusted 2 hooks"), "A");
      await t.keys("p");
      await t.waitFor((x) => x.includes(`untrusted project ${w.repo}`), "p untrusts");
      await t.keys("p");
      s = await t.waitFor((x) => flat(x).includes("hooks are trusted already"), "the message after A");
      assert(s.includes("2 hooks, 0 need review"), s);
      assert(flat(s).includes(`trusted project ${w.repo}: its 2 hooks are trusted already`), s);
    });
  },
});
