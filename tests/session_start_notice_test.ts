/**
 * A session start names what will not run (SPEC §6 r3): every SessionStart result carries one line naming
 * up to three hooks in reach — of any event — that are untrusted or modified (a pinned file included), by
 * event, matcher and command with the why, and an untrusted project's hooks with their folders and count.
 * On every path: the fast path (user layer), the sandbox Worker (a trusted project), `serve`, `mod.ts` and
 * each adapter, in the channel its host shows at session start (Copilot CLI: stderr with exit 2). Counting
 * an untrusted project's hooks runs and trusts nothing of it.
 */
import { join } from "node:path";
import { assert, assertEquals } from "./helpers/assert.ts";
import {
  cmd,
  event,
  group,
  type Json,
  makeHome,
  makeProject,
  runCli,
  sessionId,
  trustProject,
  writeHooksJson,
} from "./helpers/cli.ts";
import {
  comparable,
  hostSessionStart,
  PROTOCOL_HOSTS,
  viaCli,
  viaMod,
  viaProtocol,
  viaServe,
} from "./helpers/front_ends.ts";

const start = (cwd: string) => event("SessionStart", { cwd, session_id: sessionId("notice") });
const sh = (name: string) => cmd(`sh ${name}.sh`);

Deno.test("session start (r3): one line names up to three hooks that will not run, of any event, with why — fast path, serve and mod.ts agree", async () => {
  await using home = await makeHome();
  await writeHooksJson(home.path, {
    SessionStart: [group([cmd("true")])],
    PreToolUse: [group([sh("guard")], "Bash")],
    Stop: [group([sh("stop")])],
    PostToolUse: [group([sh("fmt")], "Edit|Write")],
    UserPromptSubmit: [group([sh("prompt")])],
  });
  const key = (event: string) => `user:${home.path}/hooks.json:${event}:0:0`;
  // The greeting is trusted; the prompt hook is disabled (the user's own choice, not news).
  const t = await runCli(["trust", key("SessionStart"), "--home", home.path]);
  assertEquals(t.code, 0, t.stderr);
  const d = await runCli(["disable", key("UserPromptSubmit"), "--home", home.path]);
  assertEquals(d.code, 0, d.stderr);
  const input = start(home.path);
  const r = await viaCli(home.path, input);
  assertEquals(r.systemMessages, [
    `mind-hooks: 3 hooks will not run until reviewed — PreToolUse Bash "sh guard.sh" (untrusted), ` +
    `Stop "sh stop.sh" (untrusted), PostToolUse Edit|Write "sh fmt.sh" (untrusted): run mind-hooks review`,
  ]);
  assertEquals(comparable(await viaServe(home.path, input)), comparable(r));
  assertEquals(comparable(await viaMod(home.path, input)), comparable(r));

  // A fourth is counted; other events keep their own line (their matched hooks only).
  await writeHooksJson(home.path, {
    SessionStart: [group([cmd("true")])],
    PreToolUse: [group([sh("guard")], "Bash"), group([sh("guard2")], "Bash")],
    Stop: [group([sh("stop")])],
    PostToolUse: [group([sh("fmt")], "Edit|Write")],
  });
  const more = await viaCli(home.path, start(home.path));
  assertEquals(more.systemMessages.length, 1);
  assert(more.systemMessages[0].endsWith(` and 1 more: run mind-hooks review`), more.systemMessages[0]);
  const stop = await viaCli(home.path, event("Stop", { cwd: home.path, session_id: sessionId("notice") }));
  assertEquals(stop.systemMessages, ["1 hook needs review: run mind-hooks review"]);
});

Deno.test("session start (r3): a trusted hook whose pinned file changed is named with the file (sandboxed project)", async () => {
  await using home = await makeHome();
  await using proj = await makeProject();
  await Deno.writeTextFile(join(proj.mindDir, "check_tool.sh"), "cat >/dev/null\n");
  await writeHooksJson(proj.mindDir, { PreToolUse: [group([cmd("sh .mind/check_tool.sh")], "Bash")] });
  await trustProject(home.path, proj.path);
  const clean = await viaCli(home.path, start(proj.path));
  assertEquals(clean.systemMessages, []);
  await Deno.writeTextFile(join(proj.mindDir, "check_tool.sh"), "cat >/dev/null\necho changed\n");
  const r = await viaCli(home.path, start(proj.path));
  assertEquals(r.systemMessages, [
    `mind-hooks: 1 hook will not run until reviewed — PreToolUse Bash "sh .mind/check_tool.sh" ` +
    `(modified: .mind/check_tool.sh changed): run mind-hooks review`,
  ]);
  assertEquals(comparable(await viaServe(home.path, start(proj.path))), comparable(r));
  assertEquals(comparable(await viaMod(home.path, start(proj.path))), comparable(r));
});

/** An untrusted project with hooks in `.mind/` (2) and `.claude/` (1, beside a statusLine command). */
async function untrustedProject() {
  const proj = await makeProject();
  const marker = join(proj.path, "ran.txt");
  const run = cmd(`touch ${marker}`);
  await writeHooksJson(proj.mindDir, { SessionStart: [group([run])], PreToolUse: [group([run], "Bash")] });
  await Deno.mkdir(join(proj.path, ".claude"));
  await Deno.writeTextFile(
    join(proj.path, ".claude", "settings.json"),
    JSON.stringify({
      statusLine: { type: "command", command: "echo status" },
      hooks: { SessionStart: [{ hooks: [{ type: "command", command: `touch ${marker}` }] }] },
    }),
  );
  return { ...proj, marker };
}

Deno.test("session start (r3): an untrusted project is named with its folders and hooks; nothing of it runs or is trusted", async () => {
  await using home = await makeHome();
  await using proj = await untrustedProject();
  const line = (count: string, where: string) =>
    `mind-hooks: ${proj.path} has ${count} in ${where}; they will not run: mind-hooks project trust ${proj.path}`;
  const r = await viaCli(home.path, start(proj.path));
  assertEquals(r.systemMessages, [line("3 hooks", ".mind/ and .claude/")]);
  assertEquals(r.runs, []);
  assertEquals(comparable(await viaServe(home.path, start(proj.path))), comparable(r));
  assertEquals(comparable(await viaMod(home.path, start(proj.path))), comparable(r));

  // Each adapter, in its host's session-start channel; Claude Code runs .claude/ itself, so it is not named.
  const seen: Record<string, unknown> = {};
  for (const host of PROTOCOL_HOSTS) {
    const { stdout, cli } = await viaProtocol(host, home.path, hostSessionStart(host, proj.path, sessionId("n")));
    seen[host] = [stdout?.systemMessage, cli.code, cli.stderr.trim()];
  }
  const claudeLine = line("2 hooks", ".mind/");
  assertEquals(seen, {
    claude: [claudeLine, 0, ""],
    codex: [line("3 hooks", ".mind/ and .claude/"), 0, ""],
    gemini: [line("3 hooks", ".mind/ and .claude/"), 0, ""],
    copilot: [line("3 hooks", ".mind/ and .claude/"), 2, line("3 hooks", ".mind/ and .claude/")],
  });
  // Counting read files only: nothing ran, nothing was trusted.
  assertEquals(await Deno.stat(proj.marker).then(() => true, () => false), false);
  assertEquals(await Deno.readTextFile(join(home.path, "config.toml")).catch(() => ""), "");
});

Deno.test("session start (r3): a broken trust store gives only the fix of the file — no review or project advice", async () => {
  await using home = await makeHome();
  await using proj = await untrustedProject();
  await writeHooksJson(home.path, { Stop: [group([sh("stop")])] });
  await Deno.writeTextFile(join(home.path, "config.toml"), "[hooks\n");
  const r = await viaCli(home.path, start(proj.path));
  assertEquals(r.systemMessages.length, 1, JSON.stringify(r.systemMessages));
  assert(/config\.toml does not parse at 1:/.test(r.systemMessages[0]), r.systemMessages[0]);
});

Deno.test("session start (r3): text a stranger wrote reaches the line escaped", async () => {
  await using home = await makeHome();
  await writeHooksJson(home.path, { PreToolUse: [group([cmd("sh x.sh \u001b[2J\u202e")], "Bash\u0007")] });
  const r = await viaCli(home.path, start(home.path));
  assertEquals(r.systemMessages, [
    `mind-hooks: 1 hook will not run until reviewed — PreToolUse Bash\\x07 "sh x.sh \\x1b[2J\\u202e" (untrusted): run mind-hooks review`,
  ]);
  const copilot = await viaProtocol("copilot", home.path, hostSessionStart("copilot", home.path, sessionId("n")));
  assertEquals(copilot.cli.stderr.trim(), r.systemMessages[0]);
  const json: Json | null = copilot.stdout;
  assertEquals(json?.systemMessage, r.systemMessages[0]);
});
