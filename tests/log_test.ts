/**
 * Tests of the observation log (SPEC §12): what `dispatch` writes to `$MIND_HOME/logs/hooks.jsonl`
 * (one line per discovery warning and per handler run, never a hook's stdin or output). Rotation at
 * the size limit keeping 3 files (unit tests with a small limit) is src/log/observation_test.ts.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import { readLog } from "./helpers/log.ts";
import { cmd, dispatch, event, group, makeHome, PYTHON, sessionId, shq, writeHooksJson } from "./helpers/cli.ts";
import { logPath } from "../src/log/observation.ts";

const SECRET_IN = "PROMPT-SECRET-4f1c";
const SECRET_OUT = "OUTPUT-SECRET-9a2e";
const SECRET_ERR = "STDERR-SECRET-77d0";

Deno.test({
  name: "dispatch logs one line per discovery warning and per handler run, without stdin or output",
  ignore: Deno.build.os === "windows",
  async fn() {
    await using home = await makeHome();
    // The hooks echo their stdin (which holds the prompt) into their output and stderr.
    const echoing = `${shq(PYTHON)} -c ${
      shq(
        `import json,sys; d=json.load(sys.stdin); print(json.dumps({"systemMessage": "${SECRET_OUT} " + d["prompt"], "hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": "${SECRET_OUT} " + d["prompt"]}}))`,
      )
    }`;
    const failing = `cat; echo ${SECRET_ERR} >&2; exit 1`;
    await writeHooksJson(home.path, {
      UserPromptSubmit: [group([cmd(echoing, { bogusField: true }), cmd(failing)])],
    });
    const r = await dispatch(
      home.path,
      event("UserPromptSubmit", { session_id: sessionId("log"), prompt: `please ${SECRET_IN}` }),
      ["--dangerously-bypass-hook-trust"],
    );
    assertEquals(r.runs.map((x) => x.status), ["completed", "failed"]);
    assert(r.warnings.some((w) => w.code === "W_UNKNOWN_FIELD"), "the config should raise W_UNKNOWN_FIELD");
    assert(r.additionalContext[0].includes(SECRET_IN), "the hook did not see the prompt");

    const lines = readLog(home.path);
    assertEquals(lines.length, r.warnings.length + r.runs.length, "one line per warning and per run");
    const warnings = lines.filter((l) => l.kind === "warning");
    assertEquals(
      warnings.map((w) => [w.code, w.message, w.source]),
      r.warnings.map((w) => [w.code, w.message, w.source]),
    );
    const runs = lines.filter((l) => l.kind === "run");
    assertEquals(
      runs.map((l) => [l.key, l.event, l.status, l.reason, l.exit_code]),
      r.runs.map((x) => [x.key, "UserPromptSubmit", x.status, x.reason, x.exit_code]),
    );
    assertEquals(runs[1].reason, "exit 1");
    for (const l of runs) {
      assertEquals(typeof l.duration_ms, "number");
      assert(typeof l.timestamp === "string" && !Number.isNaN(Date.parse(l.timestamp as string)), "bad timestamp");
    }
    const text = Deno.readTextFileSync(logPath(home.path));
    for (const secret of [SECRET_IN, SECRET_OUT, SECRET_ERR]) {
      assert(!text.includes(secret), `the log holds ${secret}`);
    }

    // The next dispatch appends; the file keeps growing line by line.
    await dispatch(home.path, event("UserPromptSubmit", { session_id: sessionId("log") }), [
      "--dangerously-bypass-hook-trust",
    ]);
    assertEquals(readLog(home.path).length, 2 * lines.length);
  },
});
