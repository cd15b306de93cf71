/**
 * Host input passes through unchanged in adapter mode (issue 33): a field mind does not know, sent by the
 * real Claude Code (`prompt_id`, `effort`, `background_tasks`, `session_crons`), reaches the hook as the
 * host sent it, with no warning per field on every event; nothing the host did not send (`model`,
 * `turn_id`) is invented for the hook. Native `dispatch` keeps SPEC §5's strict form.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import { join } from "node:path";
import { cmd, group, type Json, makeHome, runCli, sessionId, shHook, trustAll, writeHooksJson } from "./helpers/cli.ts";

/** What Claude Code 2.1 sends on PreToolUse, with fields mind has no counterpart for. */
function claudePreToolUse(cwd: string): Json {
  return {
    session_id: sessionId("pass"),
    transcript_path: join(cwd, "t.jsonl"),
    cwd,
    permission_mode: "default",
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command: "echo hi", description: "Print hi" },
    tool_use_id: "toolu_01",
    prompt_id: "p-123",
    effort: { level: "high" },
    background_tasks: [{ id: "b1", status: "running" }],
    session_crons: [],
  };
}

Deno.test("adapter mode: unknown host fields reach the hook unchanged; nothing invented; no per-field warning", async () => {
  await using home = await makeHome();
  const capture = join(home.path, "captured.json");
  await writeHooksJson(home.path, { PreToolUse: [group([cmd(shHook("capture_stdin.sh", [capture]))])] });
  await trustAll(home.path);
  const sent = claudePreToolUse(home.path);
  const r = await runCli(["dispatch", "--protocol", "claude", "--home", home.path], {
    stdin: JSON.stringify(sent),
    cwd: home.path,
  });
  assertEquals(r.code, 0, r.stderr);
  const seen = JSON.parse(await Deno.readTextFile(capture)) as Json;
  assertEquals(seen, sent);
  assert(!("model" in seen) && !("turn_id" in seen), "nothing the host did not send is invented");
  assert(!/W_UNKNOWN_INPUT_FIELD|unknown .* input field/.test(r.stderr), r.stderr);
  const log = await Deno.readTextFile(join(home.path, "logs", "hooks.jsonl")).catch(() => "");
  assert(!log.includes("W_UNKNOWN_INPUT_FIELD"), "no warning per field in the observation log");
});

Deno.test("native dispatch keeps §5's form: an unknown field is dropped with W_UNKNOWN_INPUT_FIELD", async () => {
  await using home = await makeHome();
  const capture = join(home.path, "captured.json");
  await writeHooksJson(home.path, { PreToolUse: [group([cmd(shHook("capture_stdin.sh", [capture]))])] });
  await trustAll(home.path);
  const sent = { ...claudePreToolUse(home.path), model: "m", turn_id: "t" };
  const r = await runCli(["dispatch", "--home", home.path], { stdin: JSON.stringify(sent), cwd: home.path });
  assertEquals(r.code, 0, r.stderr);
  const seen = JSON.parse(await Deno.readTextFile(capture)) as Json;
  assert(!("prompt_id" in seen), "dropped before the hook");
  assert(
    (r.json().warnings as Json[]).some((w) => w.code === "W_UNKNOWN_INPUT_FIELD"),
    JSON.stringify(r.json().warnings),
  );
});
