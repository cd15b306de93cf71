/**
 * Misbehaving hooks (SPEC §15 "Reliability", §7.1), each end to end through the CLI and inside the
 * sandbox Worker (MIND_HOOKS_SANDBOX=always): a hang past its timeout, a 200 MB flood on stdout (the
 * engine's peak RSS is measured), a grandchild that detaches with setsid and keeps stdout open, a
 * SIGKILL of itself, invalid UTF-8, a 50 MB JSON object, a hook that closes stdin without reading a
 * 5 MB event, and one that exits before reading stdin. Every dispatch returns within the handler's
 * timeout + 2 s with the right status and reason.
 */
import { assert, assertEquals, assertStringIncludes } from "./helpers/assert.ts";
import { cmd, event, group, type Json, makeHome, REPO, shq, trustAll, writeHooksJson } from "./helpers/cli.ts";
import { join } from "node:path";

const FIXTURES = join(REPO, "fixtures", "misbehaving");
const fixture = (name: string, ...args: string[]) =>
  `sh ${shq(join(FIXTURES, name))}${args.map((a) => " " + shq(a)).join("")}`;

type RunRecord = { key: string; status: string; reason: string | null; exit_code: number | null };
type Result = { runs: RunRecord[]; additionalContext: string[]; systemMessages: string[] };

/** One dispatch through the CLI, with its wall time and the engine process's peak RSS (VmHWM). */
async function dispatchMeasured(
  home: string,
  input: Json,
): Promise<{ result: Result; ms: number; peakRssMb: number; stderr: string }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-q", "-P", "--no-prompt", "--config", join(REPO, "deno.json"), join(REPO, "main.ts"), "dispatch"],
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: Deno.env.get("HOME") ?? "/root",
      SHELL: "/bin/sh",
      MIND_HOME: home,
      MIND_TEMP_DIR: join(home, "spill"),
      MIND_REQUIREMENTS: "/nonexistent/mind-hooks-tests/requirements.toml",
      MIND_HOOKS_SANDBOX: "always",
    },
    clearEnv: true,
    cwd: home,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const started = performance.now();
  let peakKb = 0;
  let polling = true;
  const poll = (async () => {
    while (polling) {
      try {
        const status = await Deno.readTextFile(`/proc/${child.pid}/status`);
        const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
        if (kb > peakKb) peakKb = kb;
      } catch { /* exited, or no /proc */ }
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(JSON.stringify(input))).catch(() => {});
  await w.close().catch(() => {});
  const out = await child.output();
  const ms = performance.now() - started;
  polling = false;
  await poll;
  const stderr = new TextDecoder().decode(out.stderr);
  assertEquals(out.code, 0, `dispatch exited ${out.code}: ${stderr}`);
  return { result: JSON.parse(new TextDecoder().decode(out.stdout)), ms, peakRssMb: peakKb / 1024, stderr };
}

/** A home holding one trusted hook for `eventName` that runs `command`. */
async function homeWithHook(eventName: string, command: string, timeout: number) {
  const home = await makeHome();
  await writeHooksJson(home.path, { [eventName]: [group([cmd(command, { timeout })])] });
  await trustAll(home.path);
  return home;
}

/** Asserts the dispatch came back within the handler's timeout + 2 s (SPEC §7.1). */
function inTime(ms: number, timeoutSec: number): void {
  assert(ms < timeoutSec * 1000 + 2000, `dispatch took ${Math.round(ms)} ms (timeout ${timeoutSec} s)`);
}

Deno.test("misbehaving: a hook that hangs is killed at its timeout and reported", async () => {
  await using home = await homeWithHook("PreToolUse", fixture("hang.sh"), 1);
  const { result, ms } = await dispatchMeasured(home.path, event("PreToolUse", { cwd: home.path }));
  assertEquals(result.runs.map((r) => [r.status, r.reason]), [["failed", "timeout after 1s"]]);
  inTime(ms, 1);
  assertStringIncludes(result.systemMessages.join("\n"), "timeout after 1s");
});

Deno.test("misbehaving: 200 MB on stdout keeps the engine's memory bounded", async () => {
  await using home = await homeWithHook("UserPromptSubmit", fixture("flood.sh", "200000000"), 60);
  const { result, ms, peakRssMb } = await dispatchMeasured(home.path, event("UserPromptSubmit", { cwd: home.path }));
  console.log(`200 MB flood: engine peak RSS ${peakRssMb.toFixed(0)} MB, dispatch ${Math.round(ms)} ms`);
  assertEquals(result.runs.map((r) => r.status), ["completed"]);
  // Plain stdout is context: capped at 1 MiB by the runner, then spilled to a file with a preview.
  assertEquals(result.additionalContext.length, 1);
  assert(result.additionalContext[0].length < 64 * 1024, "the model gets a preview, not the flood");
  assert(peakRssMb > 0, "peak RSS could not be read from /proc");
  assert(peakRssMb < 300, `engine peak RSS ${peakRssMb.toFixed(0)} MB for a 200 MB flood`);
  inTime(ms, 60);
});

Deno.test("misbehaving: a setsid grandchild holding stdout open does not stall the dispatch", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mind-detach-" });
  const pidFile = join(dir, "grandchild.pid");
  try {
    await using home = await homeWithHook("UserPromptSubmit", fixture("detach.sh", pidFile), 5);
    const { result, ms } = await dispatchMeasured(home.path, event("UserPromptSubmit", { cwd: home.path }));
    assertEquals(result.runs.map((r) => r.status), ["completed"]);
    assertEquals(result.additionalContext, ["parent done"]);
    // The hook exited at once; the engine stops reading the pipes after a 1 s grace, not 30 s.
    assert(ms < 5000, `dispatch took ${Math.round(ms)} ms`);
  } finally {
    const pid = Number(await Deno.readTextFile(pidFile).catch(() => "0"));
    if (pid > 1) {
      try {
        Deno.kill(pid, "SIGKILL");
      } catch { /* gone */ }
    }
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("misbehaving: a hook that kills itself with SIGKILL fails with the signal named", async () => {
  // `exec`: the fixture replaces the hook's shell, so the process the engine waits for is the one
  // that dies by the signal (through an intermediate shell it would be a plain `exit 137`).
  await using home = await homeWithHook("PreToolUse", "exec " + fixture("sigkill.sh"), 5);
  const { result, ms } = await dispatchMeasured(home.path, event("PreToolUse", { cwd: home.path }));
  assertEquals(result.runs.map((r) => [r.status, r.reason, r.exit_code]), [[
    "failed",
    "killed by signal SIGKILL",
    null,
  ]]);
  inTime(ms, 5);
});

Deno.test("misbehaving: invalid UTF-8 is replaced, never fatal", async () => {
  await using home = await homeWithHook("UserPromptSubmit", fixture("bad_utf8.sh"), 5);
  const { result, ms } = await dispatchMeasured(home.path, event("UserPromptSubmit", { cwd: home.path }));
  assertEquals(result.runs.map((r) => r.status), ["completed"]);
  assertEquals(result.additionalContext.length, 1);
  const text = result.additionalContext[0];
  assert(text.startsWith("before ") && text.endsWith(" after"), JSON.stringify(text));
  assertStringIncludes(text, "\uFFFD");
  inTime(ms, 5);
});

Deno.test("misbehaving: a 50 MB JSON object fails as over the capture limit", async () => {
  await using home = await homeWithHook("PreToolUse", fixture("huge_json.sh", "50000000"), 60);
  const { result, ms, peakRssMb } = await dispatchMeasured(home.path, event("PreToolUse", { cwd: home.path }));
  console.log(`50 MB JSON: engine peak RSS ${peakRssMb.toFixed(0)} MB, dispatch ${Math.round(ms)} ms`);
  assertEquals(result.runs.map((r) => [r.status, r.reason]), [[
    "failed",
    "invalid JSON: output exceeded the 1 MiB capture limit",
  ]]);
  assert(peakRssMb < 300, `engine peak RSS ${peakRssMb.toFixed(0)} MB`);
  inTime(ms, 60);
});

Deno.test("misbehaving: a hook that closes stdin without reading a 5 MB event still answers", async () => {
  await using home = await homeWithHook("UserPromptSubmit", fixture("close_stdin.sh"), 5);
  const input = event("UserPromptSubmit", { cwd: home.path, prompt: "p".repeat(5_000_000) });
  const { result, ms } = await dispatchMeasured(home.path, input);
  assertEquals(result.runs.map((r) => r.status), ["completed"]);
  assertEquals(result.systemMessages, ["closed stdin"]);
  inTime(ms, 5);
});

Deno.test("misbehaving: a hook that exits before reading stdin still answers", async () => {
  await using home = await homeWithHook("PreToolUse", fixture("exit_early.sh"), 5);
  const input = event("PreToolUse", { cwd: home.path, tool_input: { cmd: "x".repeat(5_000_000) } });
  const { result, ms } = await dispatchMeasured(home.path, input);
  assertEquals(result.runs.map((r) => r.status), ["completed"]);
  assertEquals(result.systemMessages, ["exited early"]);
  inTime(ms, 5);
});
