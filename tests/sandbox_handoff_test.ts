/**
 * The sandbox Worker goes on from what the launcher's fast path prepared (issue 32: the event read and
 * the configuration loaded once): a trusted project's matching hook runs in the Worker, which reads no
 * hooks file again. `strace` is the oracle of what the process opened: each hooks file is opened twice
 * in all — its text searched by the decision of what is in reach (src/sandbox/reach.ts), parsed by the
 * fast path — and not a third time by the Worker; on the mind protocol and on a host's. Skipped, saying
 * so, where strace is not installed.
 */
import { assertEquals } from "./helpers/assert.ts";
import { cmd, event, group, makeHome, makeProject, runCli, trustProject, writeHooksJson } from "./helpers/cli.ts";
import { openedPaths, straceWorks, tracedCli } from "./helpers/strace.ts";
import { join } from "node:path";

const STRACE = await straceWorks();
if (!STRACE) console.log("sandbox_handoff_test: skipped: strace is not installed (or cannot trace here)");

Deno.test({
  name: "sandbox handoff: a trusted project's hook runs in the Worker, which reads no hooks file again",
  ignore: !STRACE,
  fn: async () => {
    await using home = await makeHome();
    await using proj = await makeProject();
    await writeHooksJson(home.path, { PostToolUse: [group([cmd("true")], "Edit")] });
    await writeHooksJson(proj.mindDir, {
      PreToolUse: [group([cmd("echo project-hook-ran >&2")], "exec_command|Bash")],
    });
    await trustProject(home.path, proj.path);
    const files = [join(home.path, "hooks.json"), join(proj.mindDir, "hooks.json")];
    const count = (opened: string[]) => files.map((f) => opened.filter((p) => p === f).length);

    const mind = await tracedCli(
      ["dispatch", "--home", home.path],
      JSON.stringify(event("PreToolUse", { cwd: proj.path })),
    );
    const claudeEvent = {
      session_id: "s-handoff",
      transcript_path: join(proj.path, "t.jsonl"),
      cwd: proj.path,
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "ls" },
      tool_use_id: "u1",
      permission_mode: "default",
    };
    const claude = await tracedCli(
      ["dispatch", "--home", home.path, "--protocol", "claude"],
      JSON.stringify(claudeEvent),
    );
    assertEquals(
      [mind.code, JSON.parse(mind.stdout).runs.map((r: { status: string }) => r.status), count(mind.opened)],
      [0, ["completed"], [2, 2]],
    );
    // Claude Code reads its answer from stdout: nothing to say for a hook that decided nothing.
    assertEquals([claude.code, claude.stdout, count(claude.opened)], [0, "", [2, 2]]);
  },
});

Deno.test({
  name: "sandbox handoff: through the warm daemon, its sandbox Worker reads no hooks file either",
  ignore: !STRACE,
  fn: async () => {
    await using home = await makeHome();
    await using proj = await makeProject();
    await writeHooksJson(proj.mindDir, { PreToolUse: [group([cmd("true")], "exec_command|Bash")] });
    await trustProject(home.path, proj.path);
    const on = { MIND_HOOKS_DAEMON: undefined };
    assertEquals((await runCli(["daemon", "start", "--home", home.path], { env: on })).code, 0);
    const log = await Deno.makeTempFile({ prefix: "mind-handoff-daemon-strace-" });
    let tracer: Deno.ChildProcess | null = null;
    try {
      const status = await runCli(["daemon", "status", "--home", home.path, "--json"], { env: on });
      const pid = String(status.json().pid);
      tracer = new Deno.Command("strace", {
        args: ["-f", "-qq", "-e", "trace=open,openat", "-o", log, "-p", pid],
        stdout: "null",
        stderr: "null",
      }).spawn();
      // strace writes nothing until it has attached: an open by the daemon is the sign (its status answer stats only).
      await new Promise((r) => setTimeout(r, 500));
      const ev = JSON.stringify(event("PreToolUse", { cwd: proj.path }));
      const r = await runCli(["dispatch", "--home", home.path, "--explain"], { stdin: ev, env: on });
      assertEquals([r.code, r.stderr.includes("answered by the daemon")], [0, true], r.stderr);
      tracer.kill("SIGINT");
      await tracer.status;
      tracer = null;
      const opened = openedPaths(await Deno.readTextFile(log));
      // The daemon's Worker starts for this first event (it loads the command line's module): from then on,
      // the project's hooks file is not opened again (the daemon's plan and fast path read it before).
      const workerStart = opened.findIndex((p) => p.endsWith("dispatch_bundle.js"));
      const hooksFile = join(proj.mindDir, "hooks.json");
      assertEquals(
        [r.json().runs.map((x: { status: string }) => x.status), workerStart > 0, opened.indexOf(hooksFile) >= 0],
        [["completed"], true, true],
      );
      assertEquals(opened.slice(workerStart).filter((p) => p === hooksFile), []);
    } finally {
      if (tracer) {
        tracer.kill("SIGINT");
        await tracer.status;
      }
      await runCli(["daemon", "stop", "--home", home.path], { env: on });
      await Deno.remove(log);
    }
  },
});
