/**
 * Gemini CLI and Copilot CLI repositories work unchanged with mind as the host (SPEC §2.8 r4, issue 33):
 * a trusted project's `.gemini/settings.json` and `.github/hooks/*.json` load as `gemini-project` and
 * `copilot-project`, each hook is fed its host's own input and read by its host's rules, and what the
 * dialect cannot run (a host event with no mind counterpart) is named at session start and in `list`.
 *
 * The Copilot hooks are github/awesome-copilot's, vendored unchanged (fixtures/thirdparty/github-awesome-copilot),
 * laid out as its READMEs say; the deny cases use the small hooks of fixtures/host_hooks/.
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { join } from "node:path";
import { dispatch, event, type Json, makeHome, REPO, runCli } from "./helpers/cli.ts";
import { writtenFor } from "../src/review/confirm.ts";

const AWESOME = join(REPO, "fixtures", "thirdparty", "github-awesome-copilot", "hooks");
const HOST_HOOKS = join(REPO, "fixtures", "host_hooks");

/** A git repository set up for Gemini CLI and Copilot CLI, its project trusted and its hooks too. */
async function hostRepo(home: string, osHome: string, guardian = false): Promise<string> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "mind-hooks-hostrepo-" }));
  await Deno.mkdir(join(root, ".git"));
  // Copilot: the tool guardian where its README puts it, the session logger in .github/hooks/.
  await Deno.mkdir(join(root, "hooks", "tool-guardian"), { recursive: true });
  await Deno.copyFile(join(AWESOME, "tool-guardian", "guard-tool.sh"), join(root, "hooks/tool-guardian/guard-tool.sh"));
  await Deno.chmod(join(root, "hooks/tool-guardian/guard-tool.sh"), 0o755);
  await Deno.mkdir(join(root, ".github", "hooks", "session-logger"), { recursive: true });
  for (const f of ["log-prompt.sh", "log-session-start.sh", "log-session-end.sh"]) {
    const to = join(root, ".github/hooks/session-logger", f);
    await Deno.copyFile(join(AWESOME, "session-logger", f), to);
    await Deno.chmod(to, 0o755);
  }
  await Deno.copyFile(join(AWESOME, "session-logger", "hooks.json"), join(root, ".github/hooks/session-logger.json"));
  if (guardian) {
    await Deno.copyFile(join(AWESOME, "tool-guardian", "hooks.json"), join(root, ".github/hooks/tool-guardian.json"));
  }
  await Deno.writeTextFile(
    join(root, ".github/hooks/zz-deny-rm.json"),
    JSON.stringify({
      version: 1,
      hooks: { preToolUse: [{ type: "command", bash: `sh ${join(HOST_HOOKS, "deny_rm_root.sh")}`, timeoutSec: 5 }] },
    }),
  );
  // Gemini: a BeforeTool guard on run_shell_command, and a hook on an event mind has no counterpart for.
  await Deno.mkdir(join(root, ".gemini"));
  await Deno.writeTextFile(
    join(root, ".gemini/settings.json"),
    JSON.stringify({
      general: { vimMode: true },
      hooks: {
        BeforeTool: [{
          matcher: "run_shell_command",
          hooks: [{
            name: "no-verify",
            type: "command",
            command: `sh ${join(HOST_HOOKS, "block_no_verify.sh")}`,
            timeout: 5000,
          }],
        }],
        BeforeModel: [{ hooks: [{ type: "command", command: "echo model" }] }],
      },
    }),
  );
  const env = { HOME: osHome };
  const p = await runCli(["project", "trust", root, "--home", home], { env });
  assertEquals(p.code, 0, p.stderr);
  const t = await runCli(["trust", "--all", "--home", home, "--cwd", root], { env });
  assertEquals(t.code, 0, t.stderr);
  return root;
}

Deno.test("mind as the host: Gemini and Copilot hooks decide, read their hosts' input, write their files", async () => {
  await using home = await makeHome();
  await using os = await makeHome();
  const root = await hostRepo(home.path, os.path);
  const opts = { env: { HOME: os.path }, cwd: root };
  try {
    // Copilot's audit logger on userPromptSubmitted writes its log, as under Copilot CLI.
    const prompt = await dispatch(home.path, event("UserPromptSubmit", { cwd: root }), [], opts);
    assertEquals(prompt.decision, null);
    const log = await Deno.readTextFile(join(root, "logs/copilot/prompts.log"));
    assertMatch(log, /"event":"userPromptSubmitted","level":"INFO"/);

    // Copilot: a non-zero exit on preToolUse denies.
    const rm = await dispatch(
      home.path,
      event("PreToolUse", { cwd: root, tool_name: "Bash", tool_input: { command: "rm -rf /" } }),
      [],
      opts,
    );
    assertEquals(rm.decision, "deny");
    assertEquals(rm.reason, "refusing rm -rf /");
    // It read Copilot's own input: toolName "bash", toolArgs as the call gave them.
    const seen = (await Deno.readTextFile(join(root, "copilot-seen.jsonl"))).trim().split("\n").map((l) =>
      JSON.parse(l)
    );
    assertEquals([seen[0].toolName, seen[0].toolArgs], ["bash", { command: "rm -rf /" }]);
    assert(!("tool_name" in seen[0]) && typeof seen[0].sessionId === "string", JSON.stringify(seen[0]));

    // Gemini: {"decision":"deny","reason":…} on BeforeTool run_shell_command denies with the reason.
    const commit = await dispatch(
      home.path,
      event("PreToolUse", { cwd: root, tool_name: "Bash", tool_input: { command: "git commit --no-verify -m x" } }),
      [],
      opts,
    );
    assertEquals(commit.decision, "deny");
    assertMatch(String(commit.reason), /--no-verify skips the pre-commit checks/);
    const gemini = JSON.parse(
      (await Deno.readTextFile(join(root, "gemini-seen.jsonl"))).trim().split("\n").at(-1)!,
    ) as Json;
    assertEquals([gemini.hook_event_name, gemini.tool_name], ["BeforeTool", "run_shell_command"]);
    assertEquals((gemini.tool_input as Json).command, "git commit --no-verify -m x");

    // Another tool: the Gemini matcher (run_shell_command) does not match Read.
    const read = await dispatch(
      home.path,
      event("PreToolUse", { cwd: root, tool_name: "Read", tool_input: { file_path: "x" } }),
      [],
      opts,
    );
    assertEquals(read.decision, null);
    const layers = new Set(read.runs.map((r) => r.layer));
    assert(layers.has("copilot-project") && !layers.has("gemini-project"), JSON.stringify(read.runs));

    // Session start names the hook mind cannot run (Gemini's BeforeModel) — never silent.
    const start = await dispatch(home.path, event("SessionStart", { cwd: root }), [], opts);
    const named = start.systemMessages.find((m) => m.includes("BeforeModel"));
    assert(named !== undefined, JSON.stringify(start.systemMessages));
    assertMatch(named, /no counterpart in mind/);
    // The session logger ran at session start too (sessionStart).
    assert((await Deno.stat(join(root, "logs/copilot/session.log")).catch(() => null)) !== null, "session.log");

    // `list` shows both layers and names the hook that does not run.
    const list = await runCli(["list", "--home", home.path, "--cwd", root], opts);
    assertEquals(list.code, 0, list.stderr);
    assertMatch(list.stdout, /copilot-project/);
    assertMatch(list.stdout, /gemini-project/);
    assertMatch(list.stdout + list.stderr, /BeforeModel has no counterpart in mind/);

    // `doctor` counts the hooks by layer and names the one that does not run.
    const doctor = await runCli(["doctor", "--home", home.path, "--cwd", root], opts);
    assertMatch(doctor.stdout, /by layer: .*gemini-project 1.*copilot-project 4/);
    assertMatch(doctor.stdout, /not run: W_HOST_EVENT_UNMAPPED .*BeforeModel has no counterpart in mind/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("awesome-copilot's tool guardian denies every call here as under Copilot CLI: it reads a field Copilot does not send", async () => {
  await using home = await makeHome();
  await using os = await makeHome();
  const root = await hostRepo(home.path, os.path, true);
  const opts = { env: { HOME: os.path }, cwd: root };
  try {
    // The guard reads `toolInput`; Copilot CLI 1.0.102 sends `toolArgs`. Its grep fallback then fails under
    // `set -euo pipefail`: exit 1, which Copilot CLI reads as a deny ("hook errored"), for any command.
    for (const command of ["rm -rf /", "ls"]) {
      const r = await dispatch(
        home.path,
        event("PreToolUse", { cwd: root, tool_name: "Bash", tool_input: { command } }),
        [],
        opts,
      );
      assertEquals([r.decision, r.reason], ["deny", "hook exited with code 1"]);
    }
    // Its env (GUARD_MODE) and cwd (".") were applied: the log folder it makes from the root exists.
    assert((await Deno.stat(join(root, ".github/logs/copilot/tool-guardian")).catch(() => null))?.isDirectory);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("an untrusted Gemini/Copilot repository: .gemini/ and .github/hooks/ mark the project, nothing runs", async () => {
  await using home = await makeHome();
  await using os = await makeHome();
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "mind-hooks-hostrepo-" }));
  try {
    await Deno.mkdir(join(root, ".git"));
    await Deno.mkdir(join(root, ".github", "hooks"), { recursive: true });
    await Deno.copyFile(join(AWESOME, "tool-guardian", "hooks.json"), join(root, ".github/hooks/guard.json"));
    const sub = join(root, "src");
    await Deno.mkdir(sub);
    const r = await dispatch(home.path, event("SessionStart", { cwd: sub }), [], { env: { HOME: os.path }, cwd: sub });
    assertEquals(r.runs, []);
    const line = r.systemMessages.find((m) => m.includes("project trust"));
    assert(line !== undefined, JSON.stringify(r.systemMessages));
    assertMatch(line, new RegExp(`${root.replaceAll("/", "\\/")} has 1 hook in \\.github\\/hooks\\/`));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("the trust confirmation says whose hook it is, under its host's own event name", () => {
  assertEquals(writtenFor({ dialect: "gemini", event: "PreToolUse" }), "Gemini CLI (BeforeTool)");
  assertEquals(writtenFor({ dialect: "copilot", event: "Stop" }), "Copilot CLI (agentStop)");
  assertEquals(writtenFor({ dialect: "claude", event: "Stop" }), null);
  assertEquals(writtenFor({ dialect: "mind", event: "Stop" }), null);
});
