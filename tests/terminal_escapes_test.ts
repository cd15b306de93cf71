/**
 * Terminal escapes (SPEC §15): every line printed for people shows control (C0, DEL, C1), bidi and
 * line-separator characters as visible escapes — whatever file names, keys, hook commands,
 * session ids and transcript payloads hold — while machine-readable output (`list --json`, the
 * `dispatch` result) stays exact JSON. Driven through the real CLI with hostile names; `sanitize`
 * itself is src/util/terminal_text_test.ts.
 */
import { assert, assertEquals, assertStringIncludes } from "./helpers/assert.ts";
import { cmd, dispatch, event, group, makeHome, runCli, shq, trustAll, writeHooksJson } from "./helpers/cli.ts";
import { join } from "node:path";
import { loadCatalog } from "../src/config/discovery.ts";
import { ReviewApp } from "../src/review/app.ts";
import { renderFrame } from "../src/review/render.ts";

/** Every character a terminal acts on, except the line feeds that end printed lines. */
// deno-lint-ignore no-control-regex -- control characters are what is looked for
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** Asserts that `text` reaches the terminal with no raw control, bidi or separator character. */
function assertVisible(text: string, what: string): void {
  const m = RAW.exec(text);
  assert(
    m === null,
    `${what} prints a raw U+${m?.[0].charCodeAt(0).toString(16).padStart(4, "0")}: ${JSON.stringify(text)}`,
  );
}

/** A folder name holding ESC (a title-setting OSC ended by BEL, then a screen clear) and a C1 CSI. */
const HOSTILE_NAME = "repo\u001b]0;pwned\u0007\u001b[2J\u009b31m";
const HOSTILE_SHOWN = "repo\\x1b]0;pwned\\x07\\x1b[2J\\x9b31m";

/** A hook command holding BEL, a right-to-left override, an Arabic letter mark and both separators. */
const HOSTILE_COMMAND = "echo ok \u0007 #\u202e gnp.txt \u061c x\u2028y\u2029z";

Deno.test("project trust|status, trust, untrust and usage errors show a hostile project path escaped", async () => {
  await using home = await makeHome();
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "mind-esc-" }));
  try {
    const dir = join(base, HOSTILE_NAME);
    await writeHooksJson(join(dir, ".mind"), { UserPromptSubmit: [group([cmd("echo hi")])] });
    const opts = ["--home", home.path];

    const trusted = await runCli(["project", "trust", dir, ...opts]);
    assertEquals(trusted.code, 0, trusted.stderr);
    assertVisible(trusted.stdout + trusted.stderr, "project trust");
    assertStringIncludes(trusted.stdout, `trusted project ${join(base, HOSTILE_SHOWN)}`);

    const status = await runCli(["project", "status", dir, ...opts]);
    assertEquals(status.code, 0, status.stderr);
    assertVisible(status.stdout + status.stderr, "project status");
    assertStringIncludes(status.stdout, `${join(base, HOSTILE_SHOWN)}: trusted`);

    const trust = await runCli(["trust", "--all", "--cwd", dir, ...opts]);
    assertEquals(trust.code, 0, trust.stderr);
    assertVisible(trust.stdout + trust.stderr, "trust");
    // trust --all names the hook by its key tail (relative to the project root).
    assertStringIncludes(trust.stdout, `  .mind/hooks.json:UserPromptSubmit:0:0  echo hi`);
    const one = await runCli([
      "trust",
      `project:${join(dir, ".mind", "hooks.json")}:UserPromptSubmit:0:0`,
      "--cwd",
      dir,
      ...opts,
    ]);
    assertVisible(one.stdout + one.stderr, "trust KEY");

    // The key itself (not its printed form) is what untrust takes.
    const key = `project:${join(dir, ".mind", "hooks.json")}:UserPromptSubmit:0:0`;
    const untrust = await runCli(["untrust", key, "--cwd", dir, ...opts]);
    assertEquals(untrust.code, 0, untrust.stderr);
    assertVisible(untrust.stdout + untrust.stderr, "untrust");
    assertStringIncludes(untrust.stdout, `untrusted project:${join(base, HOSTILE_SHOWN)}`);

    // A usage error naming the path (main.ts prints it).
    const missing = await runCli(["project", "trust", join(dir, "nope\u001b[5m"), ...opts]);
    assertEquals(missing.code, 1);
    assertVisible(missing.stderr, "the usage error");
    assertStringIncludes(missing.stderr, "nope\\x1b[5m");
    assertEquals(missing.stderr.trim().split("\n").length, 1);

    const unknownKey = await runCli(["untrust", `user:${HOSTILE_NAME}:Stop:0:0`, ...opts]);
    assertEquals(unknownKey.code, 1);
    assertVisible(unknownKey.stderr, "an unknown key's error");

    const doctor = await runCli(["doctor", ...opts], { cwd: dir });
    assertVisible(doctor.stdout + doctor.stderr, "doctor");
    assertStringIncludes(doctor.stdout, HOSTILE_SHOWN);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("list and review escape BEL, U+202E, U+061C, U+2028 and U+2029 of a hook command; list --json stays exact", async () => {
  await using home = await makeHome();
  await writeHooksJson(home.path, { UserPromptSubmit: [group([cmd(HOSTILE_COMMAND)], `x\u2028y`)] });
  const list = await runCli(["list", "--home", home.path]);
  assertEquals(list.code, 0, list.stderr);
  assertVisible(list.stdout + list.stderr, "list");
  assertStringIncludes(list.stdout, "\\x07 #\\u202e gnp.txt \\u061c x\\u2028y\\u2029z");

  const json = await runCli(["list", "--json", "--home", home.path]);
  const data = json.json();
  const text = JSON.stringify(data);
  assertStringIncludes(text, JSON.stringify(HOSTILE_COMMAND).slice(1, -1), "list --json holds the command exactly");

  const validate = await runCli(["validate", "--home", home.path]);
  assertVisible(validate.stdout + validate.stderr, "validate");

  // review's screen, rendered from the same catalog (the interactive loop is driven in review_tmux_test.ts).
  const created = await ReviewApp.create(() =>
    loadCatalog({ home: home.path, cwd: home.path, requirements: "/nonexistent/r.toml" })
  );
  assert(created.ok, "review loads");
  // The screen's own SGR styling (bold, reverse) is the only escape allowed on it.
  const frame = renderFrame(created.value, { columns: 200, rows: 40, color: false }).join("\n")
    // deno-lint-ignore no-control-regex -- the review's own SGR sequences
    .replace(/\u001b\[[0-9;]*m/g, "");
  assertVisible(frame, "review");
  assertStringIncludes(frame, "\\u202e");
});

Deno.test("a hostile validate path and warning are shown escaped", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mind-esc-validate-" });
  try {
    const file = join(dir, `bad\u001b[2J\u2028.json`);
    await Deno.writeTextFile(file, '{"hooks": {"Stop": [ }');
    const res = await runCli(["validate", file]);
    assertEquals(res.code, 1);
    assertVisible(res.stdout + res.stderr, "validate");
    assertStringIncludes(res.stderr, "bad\\x1b[2J\\u2028.json");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("transcript show escapes ESC, C1 and separators of a payload and of a torn line", async () => {
  await using home = await makeHome();
  const sid = "sess-escapes";
  const payload = { content: "\u001b]0;owned\u0007\u001b[2Jhi \u009b31m red \u2028 forged line" };
  const app = await runCli([
    "transcript",
    "append",
    "--home",
    home.path,
    "--session",
    sid,
    "--event",
    "message.created",
  ], {
    stdin: JSON.stringify(payload),
  });
  assertEquals(app.code, 0, app.stderr);
  const path = app.stdout.trim();
  // A torn (non-JSON) line with an escape sequence, as a crashed writer or a stranger could leave.
  await Deno.writeTextFile(path, "\u001b[2Jnot json\n", { append: true });
  const show = await runCli(["transcript", "show", "--home", home.path, "--session", sid]);
  assertEquals(show.code, 0, show.stderr);
  assertVisible(show.stdout + show.stderr, "transcript show");
  assertStringIncludes(show.stdout, "\\x1b]0;owned\\x07\\x1b[2Jhi \\x9b31m red");
  assertStringIncludes(show.stdout, "[torn line skipped: \\x1b[2Jnot json]");
});

Deno.test("session-end shows a hostile session id escaped", async () => {
  await using home = await makeHome();
  const res = await runCli(["session-end", "--home", home.path, "--session", "s\u009b2J\u202e\u2028x"], {
    env: { MIND_TEMP_DIR: join(home.path, "tmp") },
  });
  assertEquals(res.code, 0, res.stderr);
  assertVisible(res.stdout + res.stderr, "session-end");
  assertStringIncludes(res.stdout, "\\x9b2J\\u202e\\u2028x");
});

Deno.test("dispatch stdout stays exact JSON: a hook's ESC reaches the host unchanged", async () => {
  await using home = await makeHome();
  const text = "ctx \u001b[31m\u202e\u2028 end";
  await writeHooksJson(home.path, { UserPromptSubmit: [group([cmd(`printf '%s' ${shq(text)}`)])] });
  await trustAll(home.path);
  const res = await dispatch(home.path, event("UserPromptSubmit"));
  assertEquals(res.runs.map((r) => r.status), ["completed"]);
  assertEquals(res.additionalContext, [text]);
});
