/**
 * One behaviour on every path (SPEC §15 r3): each case — configuration, events, expected result and
 * files written — runs through the fast path (user layer), the sandboxed run (a trusted project),
 * `serve`, `mod.ts` and `dispatch --protocol <host>` for each host, and every path's whole outcome is
 * compared with the reference run's (tests/helpers/path_matrix.ts says what is normalised and how an
 * adapter's answer is compared). A divergence is a bug; where a path cannot run a case at all, the
 * case says why in `except`.
 *
 * Documented differences that are normalised, not compared (tests/helpers/path_matrix.ts): where the
 * hooks.json and the folders are (a key's layer and path), durations, times, the random names of
 * spilled files; serve logs discovery warnings once per load, the others once per event (only run
 * lines of the observation log are compared); async bookkeeping on disk (serve runs async hooks in
 * process); a host keeps its own transcript (no engine transcript file appears for its events).
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "./helpers/assert.ts";
import type { DispatchResult as R } from "./helpers/cli.ts";
import { PYTHON, shq } from "./helpers/cli.ts";
import {
  type Case,
  difference,
  expectedFiles,
  expectedHostSteps,
  hostOf,
  HOSTS,
  type Outcome,
  type PathName,
  type PathRun,
  PATHS,
  runPath,
} from "./helpers/path_matrix.ts";
import { startHttpServer } from "./helpers/mcp_server.ts";
import { modelToml, startModel, startServer } from "./helpers/hook_servers.ts";
import { safeSessionSegment } from "../src/util/session_id.ts";

/**
 * A Python hook printing `answer` (a Python expression over `big`, 600 numbered lines, and `event`, the
 * input). Kept short: a `-c` program longer than a file name can be stops the pinned-file reader of a
 * project's hooks (a divergence found here; src/trust/pins.ts).
 */
function py(answer: string): string {
  const big = answer.includes("big")
    ? `big = "\\n".join("line %05d of the big hook output" % i for i in range(600)); `
    : "";
  const code = `import json, sys; event = json.load(sys.stdin); ${big}print(json.dumps(${answer}))`;
  return `${shq(PYTHON)} -c ${shq(code)}`;
}

const cmd = (command: string, extra: Record<string, unknown> = {}) => ({ type: "command", command, ...extra });
const group = (hooks: unknown[], matcher?: string) => matcher === undefined ? { hooks } : { matcher, hooks };

/** Waits (bounded) until an async result of the run's session is ready to be taken. */
async function asyncResultReady(run: PathRun): Promise<void> {
  const until = Date.now() + 30_000;
  const results = join(run.home, "tmp", "async", safeSessionSegment(run.sessionId), "results");
  while (Date.now() < until) {
    if (run.serve) {
      if (run.serve.notifications.some((n) => n.method === "hooks/asyncCompleted")) return;
    } else {
      try {
        for await (const e of Deno.readDir(results)) if (!e.name.startsWith(".")) return;
      } catch { /* not yet */ }
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no async result for ${run.path} after 30 s`);
}

const CASES: Case[] = [
  {
    name: "spilling",
    hooks: {
      SessionStart: [
        group([cmd(py(`{"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": big}}`), {
          additionalContextLimit: 100,
        })]),
      ],
      PostToolUse: [group([cmd(py(`{"decision": "block", "reason": big}`))])],
      Stop: [group([cmd(py(`{"decision": "block", "reason": big}`), { additionalContextLimit: 100 })])],
    },
    steps: [{ dispatch: "SessionStart" }, { dispatch: "PostToolUse" }, { dispatch: "Stop" }],
    check: (ref) => {
      const [start, post, stop] = ref.steps as R[];
      for (const text of [start.additionalContext[0], post.reason!, stop.continuationPrompt!]) {
        assertStringIncludes(text, "omitted; full output saved to <temp>/hook_outputs/matrix-spilling/<uuid>.txt");
      }
      assertEquals(ref.files.filter((f) => f.startsWith("<temp>/hook_outputs/")).length, 3);
    },
  },
  {
    name: "never silent",
    hooks: {
      PreToolUse: [group([cmd("echo guard")], "(")],
      UserPromptSubmit: [group([cmd("echo not-reviewed")])],
      Stop: [group([cmd("true")])],
    },
    untrusted: (h) => h.event === "UserPromptSubmit",
    steps: [{ dispatch: "SessionStart" }, { dispatch: "UserPromptSubmit" }, { dispatch: "Stop" }],
    check: (ref) => {
      const [start, prompt, stop] = ref.steps as R[];
      assertStringIncludes(prompt.systemMessages.join("\n"), "1 hook needs review: run mind-hooks review");
      for (const r of [start, prompt, stop]) assertStringIncludes(r.systemMessages[0], 'invalid matcher "("');
      assertEquals(stop.runs.map((x) => x.status), ["completed"]);
    },
  },
  {
    name: "misspellings",
    hooks: {
      PreTooluse: [group([cmd("echo never")], "Bash")],
      TeammateIdle: [group([cmd("true")])],
      Stop: [group([cmd("true", { timout: 5 })])],
    },
    steps: [{ dispatch: "SessionStart" }, { dispatch: "Stop" }],
    check: (ref) => {
      const [start, stop] = ref.steps as R[];
      for (const r of [start, stop]) {
        const typos = r.systemMessages.filter((m) => m.includes("did you mean"));
        assertEquals(typos.length, 2, r.systemMessages.join("\n"));
        assertStringIncludes(typos[0], `unknown event "PreTooluse": its hooks do not run; did you mean "PreToolUse"?`);
        assertStringIncludes(
          typos[1],
          `unknown field "timout": ignored, the hook runs without it; did you mean "timeout"?`,
        );
      }
      assertStringIncludes(start.systemMessages.join("\n"), "mind-hooks: hooks on TeammateIdle will not run here");
      assert(!stop.systemMessages.some((m) => m.includes("will not run here")), stop.systemMessages.join("\n"));
    },
  },
  {
    name: "stop guard",
    userConfig: "[hooks]\nstop_block_cap = 1\n",
    hooks: { Stop: [group([cmd(py(`{"decision": "block", "reason": "keep going"}`))])] },
    steps: [{ dispatch: "Stop" }, { dispatch: "Stop" }, { dispatch: "Stop" }],
    check: (ref) => {
      assertEquals((ref.steps as R[]).map((r) => [r.decision, r.warnings.map((w) => w.code)]), [
        ["block", []],
        [null, ["W_STOP_LOOP_CAP"]],
        [null, ["W_STOP_LOOP_CAP"]],
      ]);
    },
  },
  {
    // SPEC §6 r4: the home cannot count (its lock path is a folder); the temp fallback does, said each time.
    name: "stop guard unavailable",
    userConfig: "[hooks]\nstop_block_cap = 1\n",
    hooks: { Stop: [group([cmd(py(`{"decision": "block", "reason": "keep going"}`))])] },
    steps: [
      {
        dispatch: "Stop",
        before: (run) => Deno.mkdir(join(run.home, "tmp", "stop_guard", ".lock"), { recursive: true }),
      },
      { dispatch: "Stop" },
      { dispatch: "Stop" },
    ],
    check: (ref) => {
      assertEquals((ref.steps as R[]).map((r) => [r.decision, r.warnings.map((w) => w.code)]), [
        ["block", ["W_STOP_GUARD_UNAVAILABLE"]],
        [null, ["W_STOP_GUARD_UNAVAILABLE", "W_STOP_LOOP_CAP"]],
        [null, ["W_STOP_GUARD_UNAVAILABLE", "W_STOP_LOOP_CAP"]],
      ]);
      for (const r of ref.steps as R[]) {
        assertStringIncludes(r.systemMessages.join("\n"), "counted in <temp>/mind-hooks-");
      }
    },
  },
  {
    name: "env file",
    hooks: {
      SessionStart: [group([cmd(`printf 'export MATRIX_ENV=1\\n' >> "$MIND_ENV_FILE"; echo env-written`)])],
    },
    steps: [{ dispatch: "SessionStart" }],
    check: (ref) => {
      assertEquals((ref.steps[0] as R).envFile, "<home>/sessions/env/matrix-env-file.env");
      assert(
        ref.files.includes("<home>/sessions/env/matrix-env-file.env: export MATRIX_ENV=1\n"),
        ref.files.join("\n"),
      );
    },
  },
  {
    name: "async results",
    hooks: {
      UserPromptSubmit: [group([
        cmd(
          `echo '{"systemMessage": "async done", "hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": "late context"}}'`,
          { async: true },
        ),
      ])],
    },
    steps: [{ dispatch: "UserPromptSubmit" }, { dispatch: "UserPromptSubmit", before: asyncResultReady }],
    check: (ref) => {
      const [first, second] = ref.steps as R[];
      assertEquals([first.runs[0].status, first.asyncResults], ["started", []]);
      assertEquals(second.asyncResults.map((a) => [a.status, a.systemMessage, a.additionalContext]), [
        ["completed", "async done", "late context"],
      ]);
    },
  },
  {
    name: "MCP hooks",
    resource: async () => {
      const server = await startHttpServer();
      return { userConfig: `[mcp_servers.scan]\nurl = "${server.url}"\n`, close: server.stop };
    },
    hooks: {
      UserPromptSubmit: [group([{ type: "mcp_tool", server: "scan", tool: "structured", input: { p: "${prompt}" } }])],
      PreToolUse: [group([{ type: "mcp_tool", server: "scan", tool: "deny", input: { reason: "scanned" } }])],
    },
    steps: [{ dispatch: "UserPromptSubmit", fields: { prompt: "scan me" } }, { dispatch: "PreToolUse" }],
    check: (ref) => {
      const [prompt, tool] = ref.steps as R[];
      assertEquals(prompt.additionalContext, ['structured:{"p":"scan me"}']);
      assertEquals([tool.decision, tool.reason], ["deny", "scanned"]);
    },
  },
  {
    name: "pinned files",
    placement: "project",
    files: { "check.sh": "echo pinned-v1\n" },
    hooks: { UserPromptSubmit: [group([cmd("sh {files}/check.sh")])] },
    steps: [
      { dispatch: "UserPromptSubmit" },
      {
        dispatch: "UserPromptSubmit",
        before: (run) => Deno.writeTextFile(join(run.filesDir, "check.sh"), "echo pinned-v2 changed\n"),
      },
    ],
    check: (ref) => {
      const [before, after] = ref.steps as R[];
      assertEquals(before.additionalContext, ["pinned-v1"]);
      assertEquals(after.runs.map((x) => [x.status, x.reason]), [["skipped", "modified: .mind/check.sh changed"]]);
    },
  },
  {
    name: "session end",
    hooks: {
      UserPromptSubmit: [
        group([cmd(py(`{"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": big}}`), {
          additionalContextLimit: 100,
        })]),
      ],
      SessionEnd: [group([cmd("echo bye")])],
      Stop: [group([cmd(py(`{"decision": "block", "reason": "again"}`))])],
    },
    // The session's spill folder, Stop guard and env file state go with it (SPEC §10, §8).
    steps: [{ dispatch: "UserPromptSubmit" }, { dispatch: "Stop" }, { dispatch: "SessionEnd" }],
    check: (ref) => {
      assertEquals((ref.steps[2] as R).runs.map((x) => x.status), ["completed"]);
      assert(
        !ref.files.some((f) => f.includes("hook_outputs") || f.includes("stop_guard/matrix")),
        ref.files.join("\n"),
      );
    },
  },
  {
    name: "tool decisions",
    hooks: {
      PreToolUse: [
        group([
          cmd(
            py(
              `{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "no thanks"}}`,
            ),
          ),
        ]),
      ],
      PostToolUse: [group([cmd(py(`{"continue": False, "stopReason": "enough", "systemMessage": "stopped"}`))])],
      UserPromptSubmit: [group([cmd(py(`{"decision": "block", "reason": "not that prompt"}`))])],
    },
    steps: [{ dispatch: "PreToolUse" }, { dispatch: "PostToolUse" }, { dispatch: "UserPromptSubmit" }],
    check: (ref) => {
      assertEquals((ref.steps as R[]).map((r) => [r.decision, r.reason, r.continue, r.stopReason]), [
        ["deny", "no thanks", true, null],
        ["stop", "enough", false, "enough"],
        ["block", "not that prompt", true, null],
      ]);
    },
  },
  {
    name: "recorded events",
    userConfig: '[hooks]\nrecord = true\nrecord_redact = ["^ses"]\n',
    hooks: {
      PreToolUse: [
        group([
          cmd(
            py(
              `{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "recorded"}}`,
            ),
          ),
        ]),
      ],
    },
    steps: [{ dispatch: "PreToolUse" }, { dispatch: "UserPromptSubmit", fields: { prompt: "my API_KEY is here" } }],
    check: (ref) => {
      const rec = ref.files.filter((f) => f.startsWith("<home>/recordings/"));
      assertEquals(rec.length, 1, ref.files.join("\n"));
      assertStringIncludes(
        rec[0],
        '{"event":"PreToolUse","decision":"deny","reason":"recorded","masked":["session_id"]}',
      );
      assertStringIncludes(
        rec[0],
        '{"event":"UserPromptSubmit","decision":null,"reason":null,"masked":["session_id"]}',
      );
    },
  },
  {
    name: "notification",
    hooks: {
      Notification: [
        group([cmd(py(`{"systemMessage": "noticed " + event["notification_type"]}`))], "permission_prompt"),
        group([cmd(py(`{"systemMessage": "never: idle only"}`))], "idle_prompt"),
      ],
    },
    steps: [{ dispatch: "Notification" }],
    check: (ref) => {
      const [n] = ref.steps as R[];
      assertEquals([n.decision, n.systemMessages, n.runs.length], [null, ["noticed permission_prompt"], 1]);
    },
    except: { codex: "Codex has no Notification event" },
  },
  {
    name: "tool failure",
    hooks: {
      PostToolUseFailure: [group([
        cmd(py(`{"decision": "block", "reason": "it failed: " + event["error"].splitlines()[0]}`)),
      ], "Bash")],
    },
    steps: [{ dispatch: "PostToolUseFailure" }],
    check: (ref) => {
      const [f] = ref.steps as R[];
      assertEquals([f.decision, f.reason], ["block", "it failed: Exit code 2"]);
    },
    except: {
      codex: "Codex has no PostToolUseFailure event",
      gemini: "Gemini CLI has no PostToolUseFailure event",
    },
  },
  {
    name: "http hook",
    resource: () => {
      const server = startServer((req) =>
        Response.json(
          req.path === "/guard"
            ? {
              hookSpecificOutput: {
                hookEventName: "PreToolUse",
                permissionDecision: "deny",
                permissionDecisionReason: "the service says no",
              },
            }
            : { hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "from the service" } },
        )
      );
      return Promise.resolve({ userConfig: "", close: server.close, vars: { hookBase: server.base } });
    },
    hooks: {
      PreToolUse: [group([{ type: "http", url: "{hookBase}/guard" }])],
      UserPromptSubmit: [group([{ type: "http", url: "{hookBase}/context", timeout: 20 }])],
    },
    steps: [{ dispatch: "PreToolUse" }, { dispatch: "UserPromptSubmit" }],
    check: (ref) => {
      const [tool, prompt] = ref.steps as R[];
      assertEquals([tool.decision, tool.reason], ["deny", "the service says no"]);
      assertEquals(prompt.additionalContext, ["from the service"]);
    },
  },
  {
    name: "prompt hook",
    resource: () => {
      const model = startModel(
        "anthropic",
        (body) => body.includes("hello") ? '{"ok": false, "reason": "the judge refused"}' : '{"ok": true}',
      );
      return Promise.resolve({ userConfig: modelToml("anthropic", model.base), close: model.close });
    },
    hooks: { UserPromptSubmit: [group([{ type: "prompt", prompt: "Judge: $ARGUMENTS" }])] },
    steps: [{ dispatch: "UserPromptSubmit", fields: { prompt: "hello judge" } }],
    check: (ref) => {
      const [prompt] = ref.steps as R[];
      assertEquals([prompt.decision, prompt.reason], ["block", "the judge refused"]);
    },
  },
  {
    // Gemini CLI's and Copilot CLI's own hook files in a trusted project (SPEC §2.8 r4): read in their
    // dialects on every path; the delegating host's own files are its own (it runs them itself).
    name: "host dialects",
    placement: "project",
    hooks: {},
    hostFiles: {
      ".gemini/settings.json": {
        hooks: {
          BeforeTool: [{
            matcher: "run_shell_command",
            hooks: [{
              type: "command",
              command: py(`{"decision": "deny", "reason": "gemini says no"}`),
              timeout: 5000,
            }],
          }],
          BeforeModel: [{ hooks: [{ type: "command", command: "echo never" }] }],
        },
      },
      ".github/hooks/audit.json": {
        version: 1,
        hooks: {
          userPromptSubmitted: [{ type: "command", bash: "echo audited", timeoutSec: 5 }],
          preToolUse: [{ type: "command", bash: "exit 1", timeoutSec: 5 }],
        },
      },
    },
    steps: [{ dispatch: "SessionStart" }, { dispatch: "UserPromptSubmit" }, { dispatch: "PreToolUse" }],
    check: (ref) => {
      const [start, prompt, tool] = ref.steps as R[];
      assertStringIncludes(start.systemMessages.join("\n"), "BeforeModel has no counterpart in mind");
      assertEquals(prompt.runs.map((r) => r.status), ["completed"]);
      assertEquals([tool.decision, tool.reason], ["deny", "gemini says no"]);
      assertEquals(tool.runs.map((r) => r.status), ["blocked", "blocked"]);
    },
    except: {
      gemini: "Gemini CLI runs its own .gemini/ hooks (SPEC §2.8: never loaded in its adapter mode)",
      copilot: "Copilot CLI runs its own .github/hooks/ (SPEC §2.8: never loaded in its adapter mode)",
    },
  },
  {
    name: "transcript",
    hooks: {
      UserPromptSubmit: [group([cmd(py(`"lines: %d" % len(open(event["transcript_path"]).read().splitlines())`))])],
    },
    steps: [
      { transcript: { event: "message.created", turnId: "turn-1", actor: "user", payload: { content: "hello" } } },
      { transcript: { event: "tool.completed", turnId: "turn-1", actor: "tool", payload: { exit_code: 0 } } },
      { dispatch: "UserPromptSubmit" },
    ],
    check: (ref) => {
      assertEquals((ref.steps[2] as R).additionalContext, ['"lines: 2"']);
      const lines = ref.files.filter((f) => f.startsWith("<home>/sessions/<date>/session-matrix-transcript.jsonl"));
      assertEquals(lines.length, 1);
      assertStringIncludes(lines[0], '"event":"tool.completed","session_id":"matrix-transcript","turn_id":"turn-1"');
    },
    // Hosts keep their own transcripts: their protocols have no transcript method, and their events
    // name their own transcript_path.
    except: Object.fromEntries(
      [...HOSTS, "claude-daemon"].map((h) => [h, "a host's protocol has no transcript method"]),
    ),
  },
];

/** The paths a case runs on, the reference first. */
function pathsOf(c: Case): PathName[] {
  const paths = PATHS.filter((p) => !c.except?.[p]);
  // A trusted project is never on the fast path: the sandboxed run is the reference there. Its hooks
  // are strangers': the daemon answers them in its warm sandbox Worker (`sandbox-daemon`), the
  // user-layer daemon paths have no project to run there.
  return c.placement === "project" ? paths.filter((p) => !["fast", "daemon", "claude-daemon"].includes(p)) : paths;
}

for (const c of CASES) {
  Deno.test({
    name: `path matrix: ${c.name} — the same outcome on ${pathsOf(c).join(", ")}`,
    ignore: Deno.build.os === "windows",
    async fn() {
      const resource = await c.resource?.();
      try {
        await matrix(
          resource
            ? {
              ...c,
              userConfig: (c.userConfig ?? "") + resource.userConfig,
              // `{name}` in the hooks: a value the resource knows only once started (its port).
              hooks: JSON.parse(
                Object.entries(resource.vars ?? {}).reduce(
                  (t, [k, v]) => t.replaceAll(`{${k}}`, v),
                  JSON.stringify(c.hooks),
                ),
              ),
            }
            : c,
        );
      } finally {
        await resource?.close();
      }
    },
  });
}

/** Runs `c` on each of its paths and compares every outcome with the reference's. */
async function matrix(c: Case): Promise<void> {
  const [refPath, ...others] = pathsOf(c);
  const reference = await runPath(c, refPath);
  // The reference itself did what the case is about (not the same failure everywhere).
  c.check(reference.outcome);
  const actual: Record<string, Outcome> = {};
  const expected: Record<string, Outcome> = {};
  // Two paths at a time: each is a handful of processes on a machine of 2 cores.
  for (let i = 0; i < others.length; i += 2) {
    await Promise.all(
      others.slice(i, i + 2).map(async (path) => {
        const got = await runPath(c, path);
        actual[path] = got.outcome;
        const host = hostOf(path);
        expected[path] = host !== null
          ? {
            steps: expectedHostSteps(c, host, reference.outcome, got.run),
            files: expectedFiles(reference.outcome, path),
          }
          : reference.outcome;
      }),
    );
  }
  const diverging = others.flatMap((p) => {
    const d = difference(actual[p], expected[p]);
    return d === null ? [] : [`${p}: ${d}`];
  });
  assertEquals(diverging, [], `${c.name}: paths diverge from ${refPath}`);
}
