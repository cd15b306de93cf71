/**
 * Review's replay in a real 80×24 terminal (tmux; SPEC §16): on a hook awaiting trust, `r` dispatches the events
 * the user's sessions recorded with that hook trusted — in a throw-away copy — and the details open with what it
 * would have changed ("against your last 3 tool calls it would have denied 1") and which call, before the user
 * answers; nothing is trusted or written to the project.
 *
 * `test --untrusted` asks its y/N at a terminal too. Without tmux these tests are skipped with a printed reason.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import { cli, makeWorld, read, Tmux, tmuxAvailable } from "../fixtures/review/harness.ts";

const HAVE_TMUX = await tmuxAvailable();
if (!HAVE_TMUX) console.log("review_replay_tmux_test: tmux is not installed; skipping the replay test");

const GUARD = `touch written-by-guard; cat | grep -q 'push --force' && { echo 'no force push' >&2; exit 2; }; exit 0`;

Deno.test({
  name: "review (tmux, 80×24): r on a hook awaiting trust replays the recorded tool calls with it trusted",
  ignore: !HAVE_TMUX,
  async fn() {
    const w = await makeWorld();
    try {
      const hooks = (handlers: string[]) =>
        Deno.writeTextFile(
          `${w.repo}/.mind/hooks.json`,
          JSON.stringify({
            hooks: {
              PreToolUse: [{ matcher: "Bash", hooks: handlers.map((command) => ({ type: "command", command })) }],
            },
          }),
        );
      await hooks(["exit 0"]);
      assertEquals((await cli(["project", "trust", w.repo, ...w.opts])).code, 0);
      assertEquals((await cli(["trust", "--all", "--cwd", w.repo, ...w.opts])).code, 0);
      await Deno.writeTextFile(
        `${w.home}/config.toml`,
        `${await read(`${w.home}/config.toml`)}\n[hooks]\nrecord = true\n`,
      );
      for (const command of ["git push --force", "ls", "git status"]) {
        const event = {
          session_id: "work",
          transcript_path: null,
          cwd: w.repo,
          hook_event_name: "PreToolUse",
          model: "m",
          turn_id: "t",
          permission_mode: "default",
          tool_name: "Bash",
          tool_use_id: "u",
          tool_input: { command },
        };
        assertEquals((await cli(["dispatch", ...w.opts], { stdin: JSON.stringify(event) })).code, 0);
      }
      // A guard is added: it awaits trust.
      await hooks(["exit 0", GUARD]);
      const before = await read(`${w.home}/config.toml`);
      const t = await Tmux.start(w, ["review", ...w.opts], { cols: 80, rows: 24 });
      try {
        await t.waitFor((x) => x.includes("1 needs review"), "the review screen");
        await t.keys("n");
        await t.waitFor((x) => x.includes("> [untrusted]"), "the guard selected");
        await t.keys("r");
        const s = await t.waitFor(
          (x) => x.includes("against your last 3 tool calls it would have denied 1"),
          "the replay",
          60_000,
        );
        const flat = s.replace(/\s+/g, " ");
        assert(flat.includes('PreToolUse Bash "git push --force": allowed then, denied now'), s);
        assert(!flat.includes('"ls": allowed then'), s);
        for (const line of s.split("\n")) assert(line.length <= 80, `a line wider than 80:\n${s}`);
        // Nothing trusted, nothing written where the project is.
        assertEquals(await read(`${w.home}/config.toml`), before);
        let wrote = true;
        await Deno.stat(`${w.repo}/written-by-guard`).catch(() => (wrote = false));
        assert(!wrote, "the replayed guard wrote into the project");
        await t.keys("q");
        await t.waitFor((x) => x.includes("EXIT=0"), "review ends");
      } finally {
        await t.kill();
      }
    } finally {
      await w.cleanup();
    }
  },
});

Deno.test({
  name: "test --untrusted (tmux): at a terminal it names the hooks and asks y/N; n runs nothing, y runs them",
  ignore: !HAVE_TMUX,
  async fn() {
    const w = await makeWorld();
    try {
      await Deno.writeTextFile(
        `${w.repo}/.mind/hooks.json`,
        JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: GUARD }] }] } }),
      );
      await Deno.mkdir(`${w.repo}/.mind/tests`);
      await Deno.writeTextFile(
        `${w.repo}/.mind/tests/push.toml`,
        `[[case]]\nname = "no force push"\ncommand = "git push --force"\ndecision = "deny"\n`,
      );
      for (const [answer, expected] of [["n", "nothing run"], ["y", "1 passed, 0 failed"]]) {
        const t = await Tmux.start(w, ["test", "--untrusted", ...w.opts], { cols: 80, rows: 24 });
        try {
          await t.waitFor((x) => x.includes("Run them for this command only? [y/N]"), "the question");
          const asked = await t.screen();
          assert(asked.includes("1 hook run untrusted in a throw-away copy of the project"), asked);
          await t.keys(answer, "Enter");
          const s = await t.waitFor((x) => x.includes("EXIT="), "the end", 60_000);
          assert(s.includes(expected), s);
          assert(s.includes(answer === "n" ? "EXIT=1" : "EXIT=0"), s);
        } finally {
          await t.kill();
        }
      }
      let wrote = true;
      await Deno.stat(`${w.repo}/written-by-guard`).catch(() => (wrote = false));
      assert(!wrote, "the guard wrote into the project");
    } finally {
      await w.cleanup();
    }
  },
});
