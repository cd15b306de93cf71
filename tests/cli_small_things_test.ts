/**
 * Issue 24's small things, each of which cost a user minutes: `dispatch` typed at a terminal says
 * what it waits for (and still works when fed); a home that does not exist is named by `list` and
 * `doctor`; a mistyped handler field (`timout`) gets a did-you-mean; a mistyped top-level option
 * (`--versoin`) too; a bad `-c` value is an error about the option, not about a hook; `list`'s
 * server-side-tool note only where a hook can meet server-side tools; `doctor` cites no SPEC
 * section a binary user does not have. (`logs --key nope`: tests/logs_test.ts.)
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import { cli, makeWorld, stopEvent, Tmux, tmuxAvailable } from "../fixtures/review/harness.ts";

const HAVE_TMUX = await tmuxAvailable();

Deno.test({
  name: "dispatch at a terminal says on stderr what it expects, and works when an event is typed",
  ignore: !HAVE_TMUX,
  async fn() {
    const w = await makeWorld();
    const t = await Tmux.start(w, ["dispatch", ...w.opts], { cols: 120, rows: 30 });
    try {
      await t.waitFor(
        (x) => x.includes("mind-hooks dispatch: reading one event as JSON from stdin (a terminal)"),
        "the prompt on stderr",
      );
      await t.keys("-l", stopEvent(w.repo));
      await t.keys("Enter", "C-d");
      const s = await t.waitFor((x) => x.includes("EXIT=0"), "the result");
      assert(s.replace(/\s+/g, "").includes('"decision":null'), s);
    } finally {
      await t.kill();
      await w.cleanup();
    }
  },
});

Deno.test("dispatch fed on stdin says nothing on stderr", async () => {
  const w = await makeWorld();
  try {
    const r = await cli(["dispatch", ...w.opts], { cwd: w.repo, stdin: stopEvent(w.repo) });
    assertEquals([r.code, r.stderr], [0, ""]);
  } finally {
    await w.cleanup();
  }
});

Deno.test("a home that does not exist is named by list and doctor", async () => {
  const w = await makeWorld();
  try {
    const typo = `${w.root}/hoem`;
    const line = `the home ${typo} does not exist: nothing is trusted and no user hook is loaded from it`;
    const list = await cli(["list", "--home", typo, "--requirements", w.noRequirements], { cwd: w.repo });
    assertEquals(list.code, 0, list.stderr);
    assert(list.stdout.includes(line), list.stdout);
    const json = JSON.parse((await cli(["list", "--json", "--home", typo], { cwd: w.repo })).stdout);
    assertEquals(json.homeExists, false);
    const doctor = await cli(["doctor", "--home", typo, "--requirements", w.noRequirements], { cwd: w.repo });
    assert(doctor.stdout.includes(line), doctor.stdout);
    // An existing home says nothing of the kind.
    const ok = await cli(["list", ...w.opts], { cwd: w.repo });
    assert(!ok.stdout.includes("does not exist"), ok.stdout);
  } finally {
    await w.cleanup();
  }
});

Deno.test("a mistyped handler field gets a did-you-mean naming the field", async () => {
  const w = await makeWorld();
  try {
    await Deno.writeTextFile(
      `${w.home}/hooks.json`,
      `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true", "timout": 5}], "matchr": "x"}]}}`,
    );
    const r = await cli(["list", ...w.opts], { cwd: w.repo });
    assert(r.stdout.includes(`Stop[0].hooks[0]: unknown field "timout" ignored; did you mean "timeout"?`), r.stdout);
    assert(r.stdout.includes(`Stop[0]: unknown field "matchr" ignored; did you mean "matcher"?`), r.stdout);
    const v = await cli(["validate", `${w.home}/hooks.json`]);
    assert(v.stderr.includes(`did you mean "timeout"?`), v.stderr);
  } finally {
    await w.cleanup();
  }
});

Deno.test("--versoin gets a suggestion", async () => {
  const r = await cli(["--versoin"]);
  assertEquals([r.code, r.stderr], [
    1,
    "mind-hooks: unknown option --versoin; did you mean --version? (see mind-hooks --help)\n",
  ]);
});

Deno.test("-c features.hooks=maybe is an error about the option, not about a hook", async () => {
  const w = await makeWorld();
  try {
    const r = await cli(["list", ...w.opts, "-c", "features.hooks=maybe"], { cwd: w.repo });
    assert(
      r.stdout.includes(
        `problem: -c: features.hooks must be true or false (got "maybe"); ignored — fix the -c value\n`,
      ),
      r.stdout,
    );
    assert(!r.stdout.includes("fix the hook"), r.stdout);
    const d = JSON.parse(
      (await cli(["dispatch", ...w.opts, "-c", "features.hooks=maybe"], {
        cwd: w.repo,
        stdin: stopEvent(w.repo),
      })).stdout,
    );
    assert(d.systemMessages.some((m: string) => m.endsWith("— fix the -c value")), JSON.stringify(d));
  } finally {
    await w.cleanup();
  }
});

Deno.test("list prints its server-side-tool note only where a hook can meet server-side tools", async () => {
  const w = await makeWorld();
  try {
    const hooks = (matcher: string) =>
      Deno.writeTextFile(
        `${w.home}/hooks.json`,
        JSON.stringify({ hooks: { PreToolUse: [{ matcher, hooks: [{ type: "command", command: "true" }] }] } }),
      );
    const note = "does not mean a same-named server-side tool is fully controlled";
    await hooks("Bash");
    assert(!(await cli(["list", ...w.opts], { cwd: w.repo })).stdout.includes(note));
    await hooks("*");
    assert((await cli(["list", ...w.opts], { cwd: w.repo })).stdout.includes(note));
  } finally {
    await w.cleanup();
  }
});

Deno.test("doctor cites no SPEC section (a binary user does not have SPEC.md)", async () => {
  const w = await makeWorld();
  try {
    await Deno.writeTextFile(`${w.repo}/.mind/x.sh`, "cat >/dev/null\n");
    await Deno.writeTextFile(
      `${w.repo}/.mind/hooks.json`,
      `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "sh .mind/x.sh"}]}]}}`,
    );
    assertEquals((await cli(["project", "trust", w.repo, ...w.opts])).code, 0);
    const r = await cli(["doctor", ...w.opts], { cwd: w.repo });
    assert(r.stdout.includes("the project's tree"), r.stdout);
    assert(!/SPEC/.test(r.stdout + r.stderr), r.stdout);
  } finally {
    await w.cleanup();
  }
});
