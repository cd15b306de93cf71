/**
 * The trust story end to end (SPEC §3, §6, §14), with the real CLI and real
 * hook scripts: a repository brings a new hook → `dispatch` skips it and says
 * so → `review` (in tmux) trusts it → `dispatch` runs it → the hook file is
 * edited → `dispatch` reports `modified` and skips it → `review` shows what
 * changed.
 *
 * Then one test per attempt to get an untrusted hook run without the user's
 * say-so: state written in the project or profile layer, a forged key naming
 * another file, a trusted hash copied from another hook, a reordered file,
 * and a symlinked hooks.json swapped after trust. None may run.
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import {
  cli,
  dispatchStop,
  listJson,
  makeWorld,
  MARK,
  markCommand,
  ran,
  Tmux,
  tmuxAvailable,
  type World,
} from "../fixtures/review/harness.ts";

/** These tests build POSIX paths and run `sh` hooks; on Windows they are skipped (and say so). */
const WINDOWS = Deno.build.os === "windows";
if (WINDOWS) console.log("trust_flow_test: skipped on Windows (POSIX paths and sh hook fixtures)");

const HAVE_TMUX = await tmuxAvailable();
if (!HAVE_TMUX) console.log("trust_flow_test: tmux is not installed; skipping the review part of the trust story");

/** A hooks.json whose Stop groups run the given commands, one group each. */
function stopHooks(...commands: string[]): string {
  return JSON.stringify(
    { hooks: { Stop: commands.map((command) => ({ hooks: [{ type: "command", command }] })) } },
    null,
    2,
  ) + "\n";
}

async function trustProject(w: World): Promise<void> {
  const r = await cli(["project", "trust", w.repo, ...w.opts]);
  assertEquals(r.code, 0, r.stderr);
}

async function trust(w: World, ...keys: string[]): Promise<void> {
  const r = await cli(["trust", ...keys, ...w.opts], { cwd: w.repo });
  assertEquals(r.code, 0, r.stderr);
}

async function hashOf(w: World, key: string, extra: string[] = []): Promise<string> {
  const h = (await listJson(w, extra)).hooks.find((x) => x.key === key);
  assert(h, `${key} is not in the list`);
  return h.hash as string;
}

async function appendUserConfig(w: World, text: string): Promise<void> {
  const path = `${w.home}/config.toml`;
  let old = "";
  try {
    old = await Deno.readTextFile(path);
  } catch {
    // no user config yet
  }
  await Deno.writeTextFile(path, old + text);
}

/** The text of the details pane (right of the `│` divider) of a 160-column screen. */
function details(screen: string): string {
  return screen.split("\n").map((l) => l.split("│ ")[1] ?? "").join("\n");
}

Deno.test({
  name: "trust story: new hook skipped → trusted in review → runs → edited → modified, skipped → review shows the diff",
  ignore: !HAVE_TMUX,
  async fn() {
    const w = await makeWorld();
    try {
      // Short commands (the hook runs in the event's cwd, the repo) so each diff line fits the pane.
      await Deno.copyFile(MARK, `${w.repo}/mark.sh`);
      await Deno.writeTextFile(`${w.repo}/.mind/hooks.json`, stopHooks("sh mark.sh ../marks/story-v1"));
      await trustProject(w);
      const key = `project:${w.repo}/.mind/hooks.json:Stop:0:0`;

      // 1. dispatch: the new hook is skipped, and the result says so.
      let res = await dispatchStop(w);
      assertEquals(res.runs.map((r) => [r.key, r.status, r.reason]), [[key, "skipped", "untrusted"]]);
      assert(res.systemMessages.includes("1 hook needs review: run mind-hooks review"), res.systemMessages.join());
      assertEquals(await ran(w, "story-v1"), false);

      // 2. review trusts it.
      let t = await Tmux.start(w, ["review", ...w.opts]);
      try {
        await t.waitFor((x) => x.includes("sh mark.sh ../marks/story-v1"), "the new hook in review");
        await t.keys("t");
        await t.waitFor((x) => x.includes("Trust 1 hook?"), "the confirmation");
        await t.keys("y");
        await t.waitFor((x) => x.includes(`trusted .mind/hooks.json:Stop:0:0`), "the trust message");
        await t.keys("q");
        await t.waitFor((x) => x.includes("EXIT=0"), "the exit");
      } finally {
        await t.kill();
      }

      // 3. dispatch runs it.
      res = await dispatchStop(w);
      assertEquals(res.runs.map((r) => [r.key, r.status]), [[key, "completed"]]);
      assertEquals(res.systemMessages.length, 0, res.systemMessages.join());
      assertEquals(await ran(w, "story-v1"), true);
      const input = JSON.parse(await Deno.readTextFile(`${w.marks}/story-v1`));
      assertEquals(input.hook_event_name, "Stop");

      // 4. The hook file is edited: dispatch reports modified and skips it.
      await Deno.writeTextFile(`${w.repo}/.mind/hooks.json`, stopHooks("sh mark.sh ../marks/story-v2"));
      res = await dispatchStop(w);
      assertEquals(res.runs.map((r) => [r.key, r.status, r.reason]), [[key, "skipped", "modified"]]);
      assert(res.systemMessages.includes("1 hook needs review: run mind-hooks review"));
      assertEquals(await ran(w, "story-v2"), false);

      // 5. review shows what changed since it was trusted (side by side: 180 columns and more).
      t = await Tmux.start(w, ["review", ...w.opts], { cols: 200, rows: 48 });
      try {
        const s = await t.waitFor((x) => x.includes("Changed since trusted"), "the diff");
        assertMatch(s, /> \[modified\]\s+on\s+\*\s+sh mark\.sh \.\.\/marks\/story-v2/);
        const d = details(s);
        assert(d.includes(`-     "command": "sh mark.sh ../marks/story-v1",`), d);
        assert(d.includes(`+     "command": "sh mark.sh ../marks/story-v2",`), d);
        assert(d.includes(`      "type": "command"`), "unchanged lines are shown as context");
        assertMatch(d, /Status\s+modified/);
        await t.keys("q");
        await t.waitFor((x) => x.includes("EXIT=0"), "the exit");
      } finally {
        await t.kill();
      }
      assertEquals(await ran(w, "story-v2"), false);
    } finally {
      await w.cleanup();
    }
  },
});

Deno.test("bypass: hook state in the project layer is ignored (W_STATE_NOT_AUTHORITATIVE), the hook does not run", {
  ignore: WINDOWS,
}, async () => {
  const w = await makeWorld();
  try {
    await trustProject(w);
    const cfg = `${w.repo}/.mind/config.toml`;
    await Deno.writeTextFile(
      cfg,
      `[[hooks.Stop]]\nhooks = [{ type = "command", command = "${markCommand(w, "p")}" }]\n`,
    );
    const key = `project:${cfg}:Stop:0:0`;
    // The project claims trust for its own hook, with the exact current hash.
    const hash = await hashOf(w, key);
    await Deno.writeTextFile(cfg, `\n[hooks.state."${key}"]\ntrusted_hash = "${hash}"\nenabled = true\n`, {
      append: true,
    });
    const res = await dispatchStop(w);
    assert(
      res.warnings.some((x) => x.code === "W_STATE_NOT_AUTHORITATIVE" && x.source === cfg),
      JSON.stringify(res),
    );
    assertEquals(res.runs.map((r) => [r.key, r.status, r.reason]), [[key, "skipped", "untrusted"]]);
    assertEquals(await ran(w, "p"), false);
  } finally {
    await w.cleanup();
  }
});

Deno.test("bypass: hook state in the profile layer is ignored (W_STATE_NOT_AUTHORITATIVE), the hook does not run", {
  ignore: WINDOWS,
}, async () => {
  const w = await makeWorld();
  try {
    const dir = `${w.home}/profiles/work`;
    await Deno.mkdir(dir, { recursive: true });
    const cfg = `${dir}/config.toml`;
    await Deno.writeTextFile(
      cfg,
      `[[hooks.Stop]]\nhooks = [{ type = "command", command = "${markCommand(w, "prof")}" }]\n`,
    );
    const key = `profile:${cfg}:Stop:0:0`;
    const hash = await hashOf(w, key, ["--profile", "work"]);
    await Deno.writeTextFile(cfg, `[hooks.state."${key}"]\ntrusted_hash = "${hash}"\n`, { append: true });
    const res = await dispatchStop(w, ["--profile", "work"]);
    assert(res.warnings.some((x) => x.code === "W_STATE_NOT_AUTHORITATIVE" && x.source === cfg));
    assertEquals(res.runs.map((r) => [r.key, r.status, r.reason]), [[key, "skipped", "untrusted"]]);
    assertEquals(await ran(w, "prof"), false);
  } finally {
    await w.cleanup();
  }
});

Deno.test("bypass: a forged key naming another file, another spelling of the path or another layer does not trust", {
  ignore: WINDOWS,
}, async () => {
  const w = await makeWorld();
  try {
    await trustProject(w);
    await Deno.writeTextFile(`${w.repo}/.mind/hooks.json`, stopHooks(markCommand(w, "forged")));
    const real = `project:${w.repo}/.mind/hooks.json:Stop:0:0`;
    const hash = await hashOf(w, real);
    const forged = [
      `project:${w.repo}/.mind/config.toml:Stop:0:0`,
      `project:${w.repo}/.mind/./hooks.json:Stop:0:0`,
      `project:${w.repo}/.mind//hooks.json:Stop:0:0`,
      `user:${w.repo}/.mind/hooks.json:Stop:0:0`,
      `project:${w.repo}/.mind/hooks.json:Stop:0:1`,
    ];
    await appendUserConfig(w, forged.map((k) => `[hooks.state."${k}"]\ntrusted_hash = "${hash}"\n`).join("\n"));
    const res = await dispatchStop(w);
    assertEquals(res.runs.map((r) => [r.key, r.status, r.reason]), [[real, "skipped", "untrusted"]]);
    assertEquals(await ran(w, "forged"), false);
  } finally {
    await w.cleanup();
  }
});

Deno.test(
  "bypass: a trusted hash copied from another hook makes it modified, not trusted",
  { ignore: WINDOWS },
  async () => {
    const w = await makeWorld();
    try {
      await trustProject(w);
      await Deno.writeTextFile(`${w.repo}/.mind/hooks.json`, stopHooks(markCommand(w, "good"), markCommand(w, "evil")));
      const good = `project:${w.repo}/.mind/hooks.json:Stop:0:0`;
      const evil = `project:${w.repo}/.mind/hooks.json:Stop:1:0`;
      await trust(w, good);
      await appendUserConfig(w, `\n[hooks.state."${evil}"]\ntrusted_hash = "${await hashOf(w, good)}"\n`);
      const res = await dispatchStop(w);
      assertEquals(res.runs.map((r) => [r.key, r.status, r.reason]), [
        [good, "completed", null],
        [evil, "skipped", "modified"],
      ]);
      assertEquals(await ran(w, "good"), true);
      assertEquals(await ran(w, "evil"), false);
    } finally {
      await w.cleanup();
    }
  },
);

Deno.test(
  "bypass: reordering a file shifts keys, and the moved hook does not inherit trust",
  { ignore: WINDOWS },
  async () => {
    const w = await makeWorld();
    try {
      await trustProject(w);
      const file = `${w.repo}/.mind/hooks.json`;
      await Deno.writeTextFile(file, stopHooks(markCommand(w, "first"), markCommand(w, "second")));
      const k0 = `project:${file}:Stop:0:0`;
      const k1 = `project:${file}:Stop:1:0`;
      await trust(w, k0);
      let res = await dispatchStop(w);
      assertEquals(res.runs.map((r) => r.status), ["completed", "skipped"]);
      assertEquals(await ran(w, "first"), true);
      await Deno.remove(`${w.marks}/first`);

      // The untrusted hook moves into the trusted slot (and the trusted one out of it).
      await Deno.writeTextFile(file, stopHooks(markCommand(w, "second"), markCommand(w, "first")));
      res = await dispatchStop(w);
      assertEquals(res.runs.map((r) => [r.key, r.status, r.reason]), [
        [k0, "skipped", "modified"],
        [k1, "skipped", "untrusted"],
      ]);
      assertEquals(await ran(w, "second"), false);
      assertEquals(await ran(w, "first"), false);
      assert(res.systemMessages.includes("2 hooks need review: run mind-hooks review"));
    } finally {
      await w.cleanup();
    }
  },
);

Deno.test(
  "bypass: a symlinked hooks.json swapped after trust does not carry the trust over",
  { ignore: WINDOWS },
  async () => {
    const w = await makeWorld();
    try {
      await trustProject(w);
      // Inside the repository: a link leaving it is never loaded at all (SPEC §3.6).
      const defs = `${w.repo}/defs`;
      await Deno.mkdir(defs);
      await Deno.writeTextFile(`${defs}/a.json`, stopHooks(markCommand(w, "a")));
      await Deno.writeTextFile(`${defs}/b.json`, stopHooks(markCommand(w, "b")));
      // c.json holds exactly a.json's definition: same content, other file.
      await Deno.writeTextFile(`${defs}/c.json`, stopHooks(markCommand(w, "a")));
      const link = `${w.repo}/.mind/hooks.json`;
      await Deno.symlink(`${defs}/a.json`, link);
      // Keys name the real file behind the link.
      const ka = `project:${defs}/a.json:Stop:0:0`;
      await trust(w, ka);
      let res = await dispatchStop(w);
      assertEquals(res.runs.map((r) => [r.key, r.status]), [[ka, "completed"]]);
      assertEquals(await ran(w, "a"), true);
      await Deno.remove(`${w.marks}/a`);

      for (const [target, marker] of [["b.json", "b"], ["c.json", "a"]]) {
        await Deno.remove(link);
        await Deno.symlink(`${defs}/${target}`, link);
        res = await dispatchStop(w);
        assertEquals(res.runs.map((r) => [r.key, r.status, r.reason]), [
          [`project:${defs}/${target}:Stop:0:0`, "skipped", "untrusted"],
        ]);
        assertEquals(await ran(w, marker), false, `${target} ran after the swap`);
      }
    } finally {
      await w.cleanup();
    }
  },
);
