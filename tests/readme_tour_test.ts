/**
 * The README's 5-minute tour, followed literally through `deno task mind-hooks` from inside the
 * repository (the task must keep the directory it was started from).
 */
import { assert, assertEquals } from "./helpers/assert.ts";

const config = decodeURIComponent(new URL("../deno.json", import.meta.url).pathname);
const skip = Deno.build.os === "windows";
if (skip) console.log("readme tour: skipped on Windows (POSIX shell hook and paths)");

async function mindHooks(cwd: string, home: string, args: string[], stdin?: string) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", "--config", config, "mind-hooks", ...args],
    cwd,
    // INIT_CWD as a shell started in `cwd` has it: deno task keeps an inherited INIT_CWD (as npm
    // does), and this test itself may run under `deno task ci`.
    env: { MIND_HOME: home, SHELL: "/bin/sh", MIND_REQUIREMENTS: `${home}/no-requirements.toml`, INIT_CWD: cwd },
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(stdin));
    await w.close();
  }
  const out = await child.output();
  return { code: out.code, stdout: new TextDecoder().decode(out.stdout), stderr: new TextDecoder().decode(out.stderr) };
}

Deno.test(
  { name: "README tour: trust the project, trust the hook, deny rm -rf, then modified", ignore: skip },
  async () => {
    const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "mind-tour-" }));
    const repo = `${root}/my-repo`;
    const home = `${root}/home`;
    try {
      await Deno.mkdir(`${repo}/.mind`, { recursive: true });
      await Deno.writeTextFile(
        `${repo}/.mind/hooks.json`,
        `// my-repo/.mind/hooks.json
{
  "description": "Repository hooks",
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          { "type": "command", "command": "python3 .mind/check_tool.py", "statusMessage": "Checking tool call", "timeout": 10 }
        ]
      }
    ]
  }
}
`,
      );
      await Deno.writeTextFile(
        `${repo}/.mind/check_tool.py`,
        `import json, sys
event = json.load(sys.stdin)
if "rm -rf" in event["tool_input"]["command"]:
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",
        "permissionDecision": "deny", "permissionDecisionReason": "rm -rf is not allowed"}}))
`,
      );
      const trustProject = await mindHooks(repo, home, ["project", "trust"]);
      assertEquals(trustProject.code, 0, trustProject.stderr);
      assert(trustProject.stdout.includes(`trusted project ${repo}`), trustProject.stdout);
      const list = await mindHooks(repo, home, ["list"]);
      assert(list.stdout.includes("status: untrusted"), list.stdout);
      const trust = await mindHooks(repo, home, ["trust", "--all"]);
      assertEquals(trust.code, 0, trust.stderr);
      const event = JSON.stringify({
        session_id: "s1",
        transcript_path: null,
        cwd: repo,
        hook_event_name: "PreToolUse",
        model: "m",
        turn_id: "t1",
        permission_mode: "default",
        tool_name: "exec_command",
        tool_use_id: "c1",
        tool_input: { cmd: "rm -rf /" },
      });
      const denied = JSON.parse((await mindHooks(repo, home, ["dispatch"], event)).stdout);
      assertEquals([denied.decision, denied.reason], ["deny", "rm -rf is not allowed"]);
      const file = `${repo}/.mind/hooks.json`;
      await Deno.writeTextFile(file, (await Deno.readTextFile(file)).replace('"timeout": 10', '"timeout": 20'));
      const modified = JSON.parse((await mindHooks(repo, home, ["dispatch"], event)).stdout);
      assertEquals([modified.decision, modified.runs[0].status, modified.runs[0].reason], [
        null,
        "skipped",
        "modified",
      ]);
      assertEquals(modified.systemMessages, ["1 hook needs review: run mind-hooks review"]);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
);
