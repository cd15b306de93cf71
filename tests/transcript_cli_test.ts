/**
 * End-to-end tests of `mind-hooks transcript append|path|show` (SPEC §11) and of the
 * `transcript_path` that `dispatch` fills in (§5): real CLI processes in temp homes.
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "./helpers/assert.ts";
import {
  cmd,
  dispatch,
  event,
  group,
  makeHome,
  PYTHON,
  REPO,
  runCli,
  shq,
  trustAll,
  writeHooksJson,
} from "./helpers/cli.ts";
import { renderTranscriptLine } from "../src/session/transcript_line.ts";
import { TranscriptLine } from "../src/session/transcript_schema.ts";

/** Runs `transcript ARGS... --home HOME`, optionally with a payload on stdin. */
function transcript(home: string, args: string[], payload?: unknown) {
  const stdin = payload === undefined ? "" : typeof payload === "string" ? payload : JSON.stringify(payload);
  return runCli(["transcript", ...args, "--home", home], { stdin });
}

/** Appends one line; fails the test unless it worked; returns the path the command printed. */
async function append(home: string, args: string[], payload?: unknown): Promise<string> {
  const res = await transcript(home, ["append", ...args], payload);
  assertEquals(res.code, 0, `append ${args.join(" ")} failed: ${res.stderr}`);
  return res.stdout.trim();
}

/** The path `transcript path` prints. */
async function pathOf(home: string, args: string[]): Promise<string> {
  const res = await transcript(home, ["path", ...args]);
  assertEquals(res.code, 0, res.stderr);
  assert(res.stdout.endsWith("\n") && res.stdout.trim().split("\n").length === 1, `not one line: ${res.stdout}`);
  return res.stdout.trim();
}

/** Every line of a transcript, schema-checked (the schema is strict: exactly the §11 fields). */
async function lines(path: string): Promise<TranscriptLine[]> {
  const text = await Deno.readTextFile(path);
  assert(text.endsWith("\n"), "the transcript does not end with a line break");
  return text.slice(0, -1).split("\n").map((l) => TranscriptLine.parse(JSON.parse(l)));
}

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

Deno.test("transcript append, path and show round trip", async () => {
  await using home = await makeHome();
  const sid = "sid_roundtrip";
  const path = await pathOf(home.path, ["--session", sid]);
  assert(
    /\/sessions\/\d{4}\/\d{2}\/\d{2}\/session-sid_roundtrip\.jsonl$/.test(path),
    `unexpected path ${path}`,
  );
  assert(path.startsWith(home.path + "/"), "the path is not under --home");
  assert(!isFile(path), "`path` must not create the file");

  assertEquals(await append(home.path, ["--session", sid, "--event", "session.started"], { source: "startup" }), path);
  await append(
    home.path,
    ["--session", sid, "--event", "message.created", "--turn", "t1", "--actor", "user"],
    { content: "hello\nthere" },
  );
  await append(home.path, ["--session", sid, "--event", "turn.completed", "--turn", "t1"]); // empty stdin = {}

  const got = await lines(path);
  assertEquals(
    got.map((l) => [l.event, l.session_id, l.turn_id, l.actor, l.payload]),
    [
      ["session.started", sid, null, null, { source: "startup" }],
      ["message.created", sid, "t1", "user", { content: "hello\nthere" }],
      ["turn.completed", sid, "t1", null, {}],
    ],
  );
  assert(got[0].timestamp <= got[1].timestamp && got[1].timestamp <= got[2].timestamp, "timestamps out of order");

  const shown = await transcript(home.path, ["show", "--session", sid]);
  assertEquals(shown.code, 0, shown.stderr);
  const raw = (await Deno.readTextFile(path)).trimEnd().split("\n");
  assertEquals(shown.stdout, raw.map(renderTranscriptLine).join("\n") + "\n");
  assertStringIncludes(shown.stdout, "  user  message.created  hello there\n");
});

Deno.test("transcript append rejects bad input and writes nothing", async () => {
  await using home = await makeHome();
  const sid = "sid_bad";
  const cases: [string[], string | undefined, string][] = [
    [["--event", "message.sent"], "{}", "unknown transcript event"],
    [["--event", "message.created"], "[1, 2]", "must be a JSON object"],
    [["--event", "message.created"], "null", "must be a JSON object"],
    [["--event", "message.created"], "{not json", "not valid JSON"],
    [["--event", "message.created", "--payload", "{}"], "{}", "unknown option --payload"],
    [[], "{}", "--event"],
  ];
  for (const [args, stdin, expected] of cases) {
    const res = await transcript(home.path, ["append", "--session", sid, ...args], stdin);
    assertEquals(res.code, 1, `${args.join(" ")} / ${stdin}`);
    // One line; a missing option is followed by the command's usage line.
    const shape = args.length === 0
      ? /^mind-hooks: [^\n]+\nusage: mind-hooks transcript [^\n]+\n$/
      : /^mind-hooks: [^\n]+\n$/;
    assert(shape.test(res.stderr), `not one line: ${JSON.stringify(res.stderr)}`);
    assertStringIncludes(res.stderr, expected);
    assertEquals(res.stdout, "");
  }
  const missing = await transcript(home.path, ["append", "--event", "session.started"], "{}");
  assertEquals(missing.code, 1);
  assertStringIncludes(missing.stderr, "--session");
  // Nothing at all was created: not the file, not even the sessions folder.
  assert(!isFile(await pathOf(home.path, ["--session", sid])));
  assertEquals([...Deno.readDirSync(home.path)].map((e) => e.name), []);

  const unknownAction = await transcript(home.path, ["rewrite", "--session", sid]);
  assertEquals(unknownAction.code, 1);
  assertStringIncludes(unknownAction.stderr, "unknown action");
  const noFile = await transcript(home.path, ["show", "--session", "sid_never_written"]);
  assertEquals(noFile.code, 1);
  assertStringIncludes(noFile.stderr, "no transcript at ");
});

Deno.test("resuming a session appends a new session.started to the same file", async () => {
  await using home = await makeHome();
  // A UUIDv7 session id: its date decides the folder, whatever today is.
  const sid = "0190f5c2-3a4b-7abc-9def-0123456789ab";
  const first = await append(home.path, ["--session", sid, "--event", "session.started"], { source: "startup" });
  await append(home.path, ["--session", sid, "--event", "message.created", "--actor", "user"], { content: "one" });
  await append(home.path, ["--session", sid, "--event", "session.ended"], { reason: "exit" });
  // A later process resumes it.
  const resumed = await append(home.path, ["--session", sid, "--event", "session.started"], { source: "resume" });
  assertEquals(resumed, first);
  assertStringIncludes(first, "/sessions/2024/07/");
  const got = await lines(first);
  assertEquals(got.map((l) => l.event), ["session.started", "message.created", "session.ended", "session.started"]);
  assertEquals(got[3].payload, { source: "resume" });
});

Deno.test("a subagent has its own transcript file", async () => {
  await using home = await makeHome();
  const sid = "sid_parent";
  const parent = await append(home.path, ["--session", sid, "--event", "session.started"], {});
  const agentPath = await pathOf(home.path, ["--session", sid, "--agent", "agent-7"]);
  assert(agentPath !== parent, "the subagent shares the parent's file");
  assertEquals(agentPath, parent.replace(/\.jsonl$/, "+agent-agent-7.jsonl"));
  const written = await append(
    home.path,
    ["--session", sid, "--agent", "agent-7", "--event", "message.created", "--actor", "assistant"],
    { content: "from the subagent" },
  );
  assertEquals(written, agentPath);
  assertEquals((await lines(parent)).map((l) => l.event), ["session.started"]);
  const sub = await lines(agentPath);
  assertEquals(sub.map((l) => [l.event, l.session_id, l.actor]), [["message.created", sid, "assistant"]]);
  const shown = await transcript(home.path, ["show", "--session", sid, "--agent", "agent-7"]);
  assertEquals(shown.stdout.trim().split("\n").length, 1);
  assertStringIncludes(shown.stdout, "assistant  message.created  from the subagent");
});

Deno.test("dispatch fills a missing transcript_path with the path `transcript path` prints", async () => {
  await using home = await makeHome();
  const seen = join(home.path, "seen");
  await Deno.mkdir(seen);
  // The hook keeps the input it read, one file per session.
  const capture = `${shq(PYTHON)} -c ${
    shq(
      "import json,sys,os; d=json.load(sys.stdin); open(os.path.join(sys.argv[1], d['session_id']), 'w').write(json.dumps(d))",
    )
  } ${shq(seen)}`;
  await writeHooksJson(home.path, { UserPromptSubmit: [group([cmd(capture)])] });
  await trustAll(home.path, home.path);
  for (const sid of ["sid_no_date", "0190f5c2-3a4b-7abc-9def-0123456789ab"]) {
    const r = await dispatch(home.path, event("UserPromptSubmit", { session_id: sid, transcript_path: undefined }));
    assertEquals(r.runs.map((x) => x.status), ["completed"]);
    const input = JSON.parse(await Deno.readTextFile(join(seen, sid)));
    assertEquals(input.transcript_path, await pathOf(home.path, ["--session", sid]));
  }
  // A transcript_path the host sent is kept as it is.
  await dispatch(
    home.path,
    event("UserPromptSubmit", { session_id: "sid_given", transcript_path: "/elsewhere/t.jsonl" }),
  );
  assertEquals(JSON.parse(await Deno.readTextFile(join(seen, "sid_given"))).transcript_path, "/elsewhere/t.jsonl");
});

/** Starts `transcript show --follow`; `lines()` waits for stdout to hold `n` lines. */
function startFollow(home: string, args: string[]) {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-q",
      "-P",
      "--no-prompt",
      "--config",
      join(REPO, "deno.json"),
      join(REPO, "main.ts"),
      "transcript",
      "show",
      "--follow",
      "--home",
      home,
      ...args,
    ],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let out = "";
  const reading = (async () => {
    for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) out += chunk;
  })();
  return {
    child,
    async lines(n: number, ms = 10_000): Promise<string[]> {
      const deadline = Date.now() + ms;
      while (out.split("\n").length - 1 < n) {
        if (Date.now() > deadline) throw new Error(`follow printed ${JSON.stringify(out)}, expected ${n} lines`);
        await new Promise((r) => setTimeout(r, 50));
      }
      return out.split("\n").slice(0, n);
    },
    async done(): Promise<{ code: number; stdout: string; stderr: string }> {
      const [status, stderr] = await Promise.all([child.status, new Response(child.stderr).text(), reading]);
      return { code: status.code, stdout: out, stderr };
    },
  };
}

Deno.test({
  name: "transcript show --follow prints appended lines and ends when the file is removed",
  ignore: Deno.build.os === "windows",
  async fn() {
    await using home = await makeHome();
    const sid = "sid_follow";
    await append(home.path, ["--session", sid, "--event", "session.started"], { source: "startup" });
    const f = startFollow(home.path, ["--session", sid]);
    try {
      assertStringIncludes((await f.lines(1))[0], "session.started");
      const path = await append(home.path, ["--session", sid, "--event", "message.created", "--actor", "user"], {
        content: "live line",
      });
      assertStringIncludes((await f.lines(2))[1], "user  message.created  live line");
      // A line torn by a crashed writer is isolated by the next append and shown as torn.
      await Deno.writeTextFile(path, '{"timestamp":"2026-', { append: true });
      await append(home.path, ["--session", sid, "--event", "turn.started", "--turn", "t2"]);
      const shown = await f.lines(4);
      assertEquals(shown[2], '[torn line skipped: {"timestamp":"2026-]');
      assertStringIncludes(shown[3], "turn.started");
      await Deno.remove(path);
      const end = await f.done();
      assertEquals(end.code, 0, end.stderr);
      assertEquals(end.stdout.split("\n").length - 1, 4, "lines printed twice or more than once");
    } finally {
      try {
        f.child.kill("SIGKILL");
      } catch { /* already exited */ }
      await f.done().catch(() => {});
    }
  },
});

Deno.test({
  name: "transcript show --follow waits for a file that does not exist yet and stops on SIGINT",
  ignore: Deno.build.os === "windows",
  async fn() {
    await using home = await makeHome();
    const sid = "sid_follow_later";
    const f = startFollow(home.path, ["--session", sid]);
    try {
      await new Promise((r) => setTimeout(r, 600)); // the viewer is up before the first line
      await append(home.path, ["--session", sid, "--event", "session.started"], { source: "startup" });
      assertStringIncludes((await f.lines(1))[0], "session.started");
      f.child.kill("SIGINT");
      const end = await f.done();
      assertEquals(end.code, 0, end.stderr);
      assertEquals(end.stderr, "");
    } finally {
      try {
        f.child.kill("SIGKILL");
      } catch { /* already exited */ }
      await f.done().catch(() => {});
    }
  },
});
