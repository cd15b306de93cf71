/**
 * SPEC §15 (r2): JSON and TOML nesting deeper than 64 levels — in the event on stdin, in
 * configuration files and in hook output — is refused with a clear error or a handler failure,
 * never a stack overflow (exit 2). Each case runs through the real CLI.
 */
import { assert, assertEquals, assertStringIncludes } from "./helpers/assert.ts";
import {
  cmd,
  dispatch,
  type DispatchResult,
  event,
  group,
  type Json,
  makeHome,
  runCli,
  shq,
  trustAll,
  writeConfigToml,
  writeHooksJson,
} from "./helpers/cli.ts";
import { join } from "node:path";
import { tooDeepOffset, tooDeepPath } from "../src/util/nesting.ts";

/**
 * `{"n": {"n": … {"leaf": true}}}` as JSON text, `depth` objects above the leaf object. Built as
 * text: the test process's own JSON.stringify must not be what overflows.
 */
function nestText(depth: number): string {
  return '{"n":'.repeat(depth) + '{"leaf":true}' + "}".repeat(depth);
}

/** The parsed form of {@link nestText}. */
function nest(depth: number): Json {
  return JSON.parse(nestText(depth));
}

/** Exit code and the whole of stderr is one `mind-hooks: …` line (never an internal error). */
function assertOneLineError(res: { code: number; stderr: string }, part: string): void {
  assertEquals(res.code, 1, res.stderr);
  const lines = res.stderr.trimEnd().split("\n");
  assertEquals(lines.length, 1, res.stderr);
  assert(lines[0].startsWith("mind-hooks: "), res.stderr);
  assert(!lines[0].includes("internal error"), res.stderr);
  assertStringIncludes(lines[0], part);
}

Deno.test("deep: a 5,000-deep mcp input in a modified hook drops its file with a W_PARSE naming the position; dispatch, list, list --json and trust --all answer", async () => {
  await using home = await makeHome();
  const path = join(home.path, "hooks.json");
  const handler = `{"type": "mcp_tool", "server": "s", "tool": "t", "input": ${nestText(5_000)}}`;
  await Deno.writeTextFile(path, `{\n  "hooks": {\n    "UserPromptSubmit": [{"hooks": [\n      ${handler}]}]}}\n`);
  const key = `user:${path}:UserPromptSubmit:0:0`;
  // A stored hash that does not match: the hook is "modified", so its hash must be computed.
  await writeConfigToml(home.path, `[hooks.state."${key}"]\ntrusted_hash = "sha256:${"0".repeat(64)}"\n`);
  const r = await dispatch(home.path, event("UserPromptSubmit"));
  const parse = r.warnings.filter((w) => w.code === "W_PARSE");
  assertEquals(parse.map((w) => [w.source, w.line, w.message]), [
    [path, 4, "JSON nests deeper than 64 levels; the file is not loaded"],
  ]);
  assertEquals(r.runs, []);
  for (const args of [["list"], ["list", "--json"], ["trust", "--all"]]) {
    const res = await runCli([...args, "--home", home.path]);
    assert(res.code === 0 || res.code === 1, `${args.join(" ")} exited ${res.code}: ${res.stderr}`);
    assert(!res.stderr.includes("internal error"), res.stderr);
  }
  const listed = await runCli(["list", "--json", "--home", home.path]);
  assertEquals(listed.json().hooks, []);
});

Deno.test("deep: a 10,000-deep model-sent tool_input denies the tool call unseen by hooks (a refusal must not let it through)", async () => {
  await using home = await makeHome();
  await writeHooksJson(home.path, {
    PreToolUse: [group([{ type: "mcp_tool", server: "s", tool: "t", input: { all: "${tool_input}" } }])],
    PermissionRequest: [group([cmd("cat >/dev/null; echo ran")])],
  });
  await writeConfigToml(home.path, `[mcp_servers.s]\nurl = "http://127.0.0.1:9/mcp"\n`);
  await trustAll(home.path);
  // A prompt-injected model could nest its arguments past the bound to skip every guard hook: the
  // host reads exit 1 as "no hooks ran" and runs the call, so the engine denies it instead.
  for (const name of ["PreToolUse", "PermissionRequest"] as const) {
    const ev = JSON.stringify(event(name, { tool_name: "mcp__x__y", tool_input: "DEEP" }));
    const res = await runCli(["dispatch", "--home", home.path], { stdin: ev.replace('"DEEP"', nestText(10_000)) });
    assertEquals([res.code, res.stderr], [0, ""], name);
    const r = res.json<DispatchResult>();
    assertEquals([r.decision, r.runs], ["deny", []], name);
    assertStringIncludes(r.reason!, "nests deeper than 64 levels (at tool_input.n.n.n.n.n.n.n…)");
    assertStringIncludes(r.systemMessages.join("\n"), "denied");
    const adapted = await runCli(["dispatch", "--protocol", "claude", "--home", home.path], {
      stdin: ev.replace('"DEEP"', nestText(10_000)),
    });
    assertEquals(adapted.code, 0, adapted.stderr);
    assertStringIncludes(adapted.stdout, '"deny"');
  }
  // 64 levels in all (tool_input is the second) still dispatch.
  const ok = await dispatch(home.path, event("PreToolUse", { tool_name: "mcp__x__y", tool_input: nest(61) }));
  assertEquals(ok.runs.map((x) => x.status), ["failed"]);
});

Deno.test("deep: a 6,000-deep updatedInput fails its handler with a fixed reason; the other hook still denies", async () => {
  await using home = await makeHome();
  const out = join(home.path, "deep.json");
  await Deno.writeTextFile(
    out,
    `{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": ${
      nestText(6_000)
    }}}`,
  );
  const deny = join(home.path, "deny.json");
  await Deno.writeTextFile(
    deny,
    JSON.stringify({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: "no",
      },
    }),
  );
  await writeHooksJson(home.path, { PreToolUse: [group([cmd(`cat ${shq(out)}`), cmd(`cat ${shq(deny)}`)])] });
  await trustAll(home.path);
  const r = await dispatch(home.path, event("PreToolUse"));
  assertEquals(r.runs.map((x) => [x.status, x.reason]), [
    ["failed", "invalid JSON: nests deeper than 64 levels"],
    ["blocked", null],
  ]);
  assertEquals([r.decision, r.reason], ["deny", "no"]);
});

Deno.test("deep: deep TOML (dotted keys, table headers, inline values) and deep JSONC are W_PARSE warnings, never a crash", async () => {
  await using home = await makeHome();
  const dotted = Array.from({ length: 10_000 }, () => "a").join(".");
  await writeConfigToml(home.path, `[${dotted}]\nx = 1\n`);
  // Comments send the file to the JSONC parser, which recurses.
  await Deno.writeTextFile(
    join(home.path, "hooks.json"),
    `// deep\n{"hooks": {}, "x": ${"[".repeat(30_000)}${"]".repeat(30_000)}}`,
  );
  const profile = join(home.path, "profiles", "p");
  await writeConfigToml(profile, `x = ${"[".repeat(65)}${"]".repeat(65)}\n`);
  await writeConfigToml(join(home.path, "profiles", "q"), `a.b.c = { d = { e = 1 } }\n`);
  for (const args of [["dispatch"], ["list"], ["list", "--json"], ["trust", "--all"], ["validate"]]) {
    const stdin = args[0] === "dispatch" ? JSON.stringify(event("UserPromptSubmit")) : "";
    const res = await runCli([...args, "--home", home.path, "--profile", "p"], { stdin });
    assert(res.code === 0 || res.code === 1, `${args.join(" ")} exited ${res.code}: ${res.stderr}`);
    assert(!res.stderr.includes("internal error"), res.stderr);
  }
  const r = await dispatch(home.path, event("UserPromptSubmit"), ["--profile", "p"]);
  const parse = r.warnings.filter((w) => w.code === "W_PARSE").map((w) => [w.source, w.line ?? null, w.message]);
  assertEquals(parse, [
    [
      join(home.path, "config.toml"),
      null,
      `TOML nests deeper than 64 levels (at a.a.a.a.a.a.a.a…); the file is not loaded`,
    ],
    [join(home.path, "hooks.json"), 2, "JSON nests deeper than 64 levels; the file is not loaded"],
    [join(profile, "config.toml"), 1, "TOML nests deeper than 64 levels; the file is not loaded"],
  ]);
  // Ordinary nesting loads.
  const q = await dispatch(home.path, event("UserPromptSubmit"), ["--profile", "q"]);
  assertEquals(q.warnings.filter((w) => w.code === "W_PARSE").length, 2);
});

Deno.test("deep: serve answers a deep dispatch with an invalid-params error and keeps serving; adapter mode and -c refuse it in one line", async () => {
  await using home = await makeHome();
  await writeHooksJson(home.path, { UserPromptSubmit: [group([cmd("echo ok")])] });
  await trustAll(home.path);
  const ev = JSON.stringify(event("UserPromptSubmit", { prompt: "DEEP" }));
  const deepEvent = ev.replace('"DEEP"', `"x", "extra": ${nestText(100_000)}`);
  const lines = [
    `{"jsonrpc":"2.0","id":1,"method":"dispatch","params":${deepEvent}}`,
    `{"jsonrpc":"2.0","id":2,"method":"transcript/append","params":{"session_id":"s","event":"x","payload":${
      nestText(100_000)
    }}}`,
    `{"jsonrpc":"2.0","id":3,"method":"dispatch","params":${ev.replace('"DEEP"', '"hi"')}}`,
    `{"jsonrpc":"2.0","id":4,"method":"shutdown"}`,
  ];
  const served = await runCli(["serve", "--home", home.path], { stdin: lines.join("\n") + "\n" });
  assertEquals(served.code, 0, served.stderr);
  const answers = served.stdout.trim().split("\n").map((l) => JSON.parse(l));
  const byId = new Map(answers.map((a) => [a.id, a]));
  assertEquals(byId.get(1).error.code, -32602);
  assertStringIncludes(byId.get(1).error.message, "nests deeper than 64 levels (at extra.n.n.n.n.n.n.n…)");
  assert(byId.get(2).error !== undefined || byId.get(2).result !== undefined, JSON.stringify(byId.get(2)));
  assertEquals(byId.get(3).result.additionalContext, ["ok"]);

  const adapted = await runCli(["dispatch", "--protocol", "claude", "--home", home.path], { stdin: deepEvent });
  assertEquals([adapted.code, adapted.stdout], [0, ""]);
  assertStringIncludes(adapted.stderr, "nests deeper than 64 levels");

  const deepKey = Array.from({ length: 70 }, () => "a").join(".");
  const res = await runCli(["dispatch", "--home", home.path, "-c", `${deepKey}=1`], { stdin: ev });
  assertOneLineError(res, `-c "${deepKey.slice(0, 60)}…" nests deeper than 64 levels`);
});

Deno.test("deep: transcript append refuses a payload nested past 64 levels — CLI, serve and the library — and stores 64", async () => {
  await using home = await makeHome();
  const deep = nestText(100_000);
  const cli = await runCli([
    "transcript",
    "append",
    "--home",
    home.path,
    "--session",
    "s-deep",
    "--event",
    "tool.completed",
  ], {
    stdin: deep,
  });
  assertOneLineError(cli, "payload nests deeper than 64 levels (at n.n.n.n.n.n.n.n…)");
  const line = (id: number, payload: string) =>
    `{"jsonrpc":"2.0","id":${id},"method":"transcript/append","params":{"session_id":"s-deep","event":"tool.completed","payload":${payload}}}`;
  const served = await runCli(["serve", "--home", home.path], {
    stdin: [line(1, deep), line(2, nestText(63)), `{"jsonrpc":"2.0","id":3,"method":"shutdown"}`].join("\n") + "\n",
  });
  assertEquals(served.code, 0, served.stderr);
  const byId = new Map(served.stdout.trim().split("\n").map((l) => JSON.parse(l)).map((a) => [a.id, a]));
  assertEquals(byId.get(1).error.code, -32602);
  assertStringIncludes(byId.get(1).error.message, "payload nests deeper than 64 levels");
  const path = byId.get(2).result.path as string;
  // Only the 64-level payload was stored.
  const stored = (await Deno.readTextFile(path)).trim().split("\n");
  assertEquals(stored.length, 1);
  assertEquals(tooDeepPath(JSON.parse(stored[0]).payload), null);
  const { appendTranscript } = await import("../src/session/transcript.ts");
  const lib = await appendTranscript(home.path, {
    sessionId: "s-deep",
    event: "tool.completed",
    payload: nest(100_000),
  });
  assertEquals(lib.ok ? "stored" : lib.error.kind, "invalid");
  assertEquals((await Deno.readTextFile(path)).trim().split("\n").length, 1);
});

Deno.test("deep: the depth checks themselves (unit)", () => {
  // nest(63) is 64 objects deep: the most accepted.
  assertEquals(tooDeepPath(nest(63)), null);
  assertEquals(tooDeepPath(nest(64))?.length, 64);
  assertEquals(tooDeepPath([[1], { a: [[]] }], 2), [1, "a"]);
  assertEquals(tooDeepOffset(`{"a": "[[[[", "b": [[1]]} // [[[[`, 2), 20);
  assertEquals(tooDeepOffset(`/* {{{{ */ {"a": "\\"}`, 1), -1);
  assertEquals(tooDeepOffset("[".repeat(65)), 64);
});

Deno.test("deep: trust --all, trust KEY and disable refuse a user config.toml nested past the bound, leaving it unchanged", async () => {
  await using home = await makeHome();
  const path = await writeHooksJson(home.path, { UserPromptSubmit: [group([cmd("echo a")])] });
  const key = `user:${path}:UserPromptSubmit:0:0`;
  for (
    const text of [
      `[${Array.from({ length: 5_000 }, () => "a").join(".")}]\nx = 1\n`,
      `x = ${"[".repeat(100)}${"]".repeat(100)}\n`,
      `a.b = ${"[".repeat(63)}${"]".repeat(63)}\n`,
    ]
  ) {
    const config = await writeConfigToml(home.path, text);
    for (const args of [["trust", "--all"], ["trust", key], ["disable", key]]) {
      const res = await runCli([...args, "--home", home.path]);
      // The trust store cannot be read (SPEC §6): refused before any write, naming the file.
      assertOneLineError(res, "trust state unreadable, only managed hooks can run — fix the file; nothing written");
      assert(/nests deeper than 64 levels|excessively nested/.test(res.stderr), res.stderr);
      assertEquals(await Deno.readTextFile(config), text);
    }
  }
});
