/**
 * http and prompt handlers and `once` end to end (SPEC §2.2 r4), through the real CLI against loopback
 * servers: what an http hook is sent and how its answer is read, its failures (and failClosed), the
 * secrets of its headers never shown or logged, the managed URL allow-list; a prompt hook's model answer
 * (Anthropic and OpenAI-compatible), `--explain` showing it, and a prompt hook without a model named at
 * session start; a Claude-dialect `once` hook run once per session.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch, assertStringIncludes } from "./helpers/assert.ts";
import {
  cmd,
  dispatch,
  echoHook,
  event,
  group,
  makeHome,
  runCli,
  sessionId,
  trustAll,
  writeConfigToml,
  writeHooksJson,
} from "./helpers/cli.ts";
import { modelToml, startModel, startServer } from "./helpers/hook_servers.ts";

const deny = {
  hookSpecificOutput: {
    hookEventName: "PreToolUse",
    permissionDecision: "deny",
    permissionDecisionReason: "the service says no",
  },
};

Deno.test("http hook: the event is POSTed, the 2xx answer read as stdout; header secrets never shown or logged", async () => {
  await using home = await makeHome();
  await using server = startServer((req) =>
    req.path === "/empty" ? new Response(null, { status: 204 }) : Response.json(deny)
  );
  const http = (path: string) => ({
    type: "http",
    url: `${server.base}${path}`,
    headers: { Authorization: "Bearer $HOOK_TOKEN", "X-Other": "$OTHER_VAR" },
    allowedEnvVars: ["HOOK_TOKEN"],
  });
  await writeHooksJson(home.path, {
    PreToolUse: [group([http("/guard")], "Bash")],
    UserPromptSubmit: [group([http("/empty")])],
  });
  await trustAll(home.path);
  const env = { HOOK_TOKEN: "s3cret-token-value", OTHER_VAR: "not-allowed" };
  const r = await dispatch(home.path, event("PreToolUse"), [], { env });
  assertEquals([r.decision, r.reason, r.runs.map((x) => x.status)], ["deny", "the service says no", ["blocked"]]);
  const sent = server.seen[0];
  assertEquals([sent.path, sent.headers["content-type"]], ["/guard", "application/json"]);
  assertEquals(sent.headers.authorization, "Bearer s3cret-token-value");
  assertEquals(sent.headers["x-other"], "$OTHER_VAR", "a variable not in allowedEnvVars stays literal");
  const body = JSON.parse(sent.body);
  assertEquals([body.hook_event_name, body.tool_name, body.tool_input.command], ["PreToolUse", "Bash", "ls -la"]);

  const empty = await dispatch(home.path, event("UserPromptSubmit"), [], { env });
  assertEquals([empty.decision, empty.runs.map((x) => x.status), empty.additionalContext], [null, ["completed"], []]);

  const list = await runCli(["list", "--home", home.path], { env });
  assertStringIncludes(list.stdout, `⚠ sends each event to 127.0.0.1:${new URL(server.base).port}`);
  assertStringIncludes(list.stdout, `http POST ${server.base}/guard`);
  const json = await runCli(["list", "--json", "--home", home.path], { env });
  assertStringIncludes(json.stdout, "Bearer $HOOK_TOKEN");
  const log = await Deno.readTextFile(join(home.path, "logs", "hooks.jsonl"));
  for (const text of [list.stdout, json.stdout, log, JSON.stringify(r)]) {
    assert(!text.includes("s3cret-token-value"), "the interpolated secret leaked");
  }
});

Deno.test("http hook in ~/.claude/settings.json (a foreign user layer): the sandbox finds it and keeps its network", async () => {
  await using home = await makeHome();
  await using osHome = await makeHome();
  await using server = startServer(() => Response.json(deny));
  await Deno.mkdir(join(osHome.path, ".claude"));
  await Deno.writeTextFile(
    join(osHome.path, ".claude", "settings.json"),
    JSON.stringify({
      hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "http", url: `${server.base}/g` }] }] },
    }),
  );
  const env = { HOME: osHome.path };
  const trusted = await runCli(["trust", "--all", "--home", home.path], { env });
  assertEquals(trusted.code, 0, trusted.stderr);
  const r = await dispatch(home.path, event("PreToolUse"), [], { env });
  assertEquals([r.decision, r.reason], ["deny", "the service says no"]);
  assertEquals(server.seen.length, 1);
});

Deno.test("http hook: a non-2xx answer, a redirect and a refused connection fail; failClosed blocks", async () => {
  await using home = await makeHome();
  await using server = startServer((req) =>
    req.path === "/moved"
      ? new Response(null, { status: 307, headers: { location: "/guard" } })
      : new Response("down", { status: 503 })
  );
  await writeHooksJson(home.path, {
    PreToolUse: [group([
      { type: "http", url: `${server.base}/down` },
      { type: "http", url: `${server.base}/moved` },
      { type: "http", url: "http://127.0.0.1:1/closed" },
    ])],
    UserPromptSubmit: [group([{ type: "http", url: `${server.base}/down`, failClosed: true }])],
  });
  await trustAll(home.path);
  const r = await dispatch(home.path, event("PreToolUse"));
  assertEquals(r.decision, null, "a failed http hook does not block");
  assertEquals(r.runs.map((x) => x.status), ["failed", "failed", "failed"]);
  assertMatch(r.runs[0].reason!, /answered HTTP 503$/);
  assertMatch(r.runs[1].reason!, /answered a redirect \(HTTP 307\), which is not followed/);
  assertMatch(r.runs[2].reason!, /^http 127\.0\.0\.1:1: /);
  assertEquals(server.seen.filter((s) => s.path === "/guard").length, 0, "the redirect was followed");
  const closed = await dispatch(home.path, event("UserPromptSubmit"));
  assertEquals(closed.decision, "block");
  assertMatch(closed.reason!, /failed \(failClosed\): http 127\.0\.0\.1:\d+ answered HTTP 503/);
});

Deno.test("http hook: the managed allow-list drops a URL it does not match, said on every dispatch", async () => {
  await using home = await makeHome();
  const req = join(home.path, "requirements.toml");
  await Deno.writeTextFile(req, `[hooks]\nallowed_http_hook_urls = ["https://hooks.corp.example/*"]\n`);
  await writeHooksJson(home.path, {
    PreToolUse: [group([{ type: "http", url: "https://elsewhere.example/guard" }, cmd(echoHook(""))])],
  });
  await trustAll(home.path, undefined, []);
  const r = await dispatch(home.path, event("PreToolUse"), [], { env: { MIND_REQUIREMENTS: req } });
  assertEquals(r.runs.map((x) => x.key.split(":").pop()), ["1"], "the http hook is not loaded");
  assertEquals(r.warnings.filter((w) => w.code === "W_HTTP_URL_NOT_ALLOWED").length, 1);
  assert(
    r.systemMessages.some((m) =>
      m.includes("https://elsewhere.example/guard is not in the managed allowed_http_hook_urls")
    ),
    r.systemMessages.join("\n"),
  );
});

for (const provider of ["anthropic", "openai"] as const) {
  Deno.test(`prompt hook (${provider}): ok:false denies with the reason; --explain shows the model's answer`, async () => {
    await using home = await makeHome();
    await using model = startModel(
      provider,
      (body) => body.includes("rm -rf") ? '{"ok": false, "reason": "it deletes everything"}' : '{"ok": true}',
    );
    await writeConfigToml(home.path, modelToml(provider, model.base));
    await writeHooksJson(home.path, {
      PreToolUse: [group([{ type: "prompt", prompt: "Is this safe? $ARGUMENTS" }], "Bash")],
    });
    await trustAll(home.path);
    const env = { JUDGE_KEY: "judge-secret-key" };
    const no = await dispatch(home.path, event("PreToolUse", { tool_input: { cmd: "rm -rf /" } }), [], { env });
    assertEquals([no.decision, no.reason], ["deny", "it deletes everything"]);
    const yes = await dispatch(home.path, event("PreToolUse"), [], { env });
    assertEquals([yes.decision, yes.runs.map((x) => x.status)], [null, ["completed"]]);
    const sent = JSON.parse(model.seen[0].body);
    const text = provider === "anthropic" ? sent.messages[0].content : sent.messages[1].content;
    assertMatch(text, /^Is this safe\? \{.*"rm -rf \/".*\}$/s);
    const key = provider === "anthropic" ? model.seen[0].headers["x-api-key"] : model.seen[0].headers.authorization;
    assertEquals(key, provider === "anthropic" ? "judge-secret-key" : "Bearer judge-secret-key");

    const explain = await runCli(["dispatch", "--explain", "--home", home.path], {
      stdin: JSON.stringify(event("PreToolUse", { tool_input: { cmd: "rm -rf /" } })),
      env,
    });
    assertStringIncludes(
      explain.stderr,
      `model answered "{\\"ok\\": false, \\"reason\\": \\"it deletes everything\\"}"`,
    );
    const log = await Deno.readTextFile(join(home.path, "logs", "hooks.jsonl"));
    assert(!log.includes("judge-secret-key") && !explain.stderr.includes("judge-secret-key"), "the key leaked");
  });
}

Deno.test("prompt hook without [hooks.model]: not run, skipped with the reason and named at session start", async () => {
  await using home = await makeHome();
  const file = await writeHooksJson(home.path, {
    PreToolUse: [group([{ type: "prompt", prompt: "Safe? $ARGUMENTS" }], "Bash")],
    // Claude Code's agent handlers stay unsupported: dropped, and named at session start too.
    Stop: [group([{ type: "agent", prompt: "verify the work" }])],
  });
  await trustAll(home.path);
  const r = await dispatch(home.path, event("PreToolUse"));
  assertEquals(r.runs.map((x) => [x.status, x.reason]), [[
    "skipped",
    "no model: set [hooks.model] in the user config",
  ]]);
  const start = await dispatch(home.path, event("SessionStart"));
  assert(
    start.systemMessages.some((m) =>
      m.startsWith('mind-hooks: 1 hook will not run — PreToolUse Bash "prompt') && m.includes("no model")
    ),
    start.systemMessages.join("\n"),
  );
  assert(
    start.systemMessages.includes(
      `mind-hooks: 1 agent hook will not run here (handler type "agent" is not supported) — Stop[0].hooks[0] in ${file}`,
    ),
    start.systemMessages.join("\n"),
  );
});

Deno.test("once (Claude dialect): a hook runs at most once per session, then it is skipped with reason once", async () => {
  await using home = await makeHome();
  await using osHome = await makeHome();
  await Deno.mkdir(join(osHome.path, ".claude"));
  await Deno.writeTextFile(
    join(osHome.path, ".claude", "settings.json"),
    JSON.stringify({
      hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: "echo first-run-context", once: true }] }] },
    }),
  );
  const env = { HOME: osHome.path };
  const trusted = await runCli(["trust", "--all", "--home", home.path], { env });
  assertEquals(trusted.code, 0, trusted.stderr);
  const sid = sessionId("once");
  const first = await dispatch(home.path, event("UserPromptSubmit", { session_id: sid }), [], { env });
  const second = await dispatch(home.path, event("UserPromptSubmit", { session_id: sid }), [], { env });
  const other = await dispatch(home.path, event("UserPromptSubmit"), [], { env });
  assertEquals(first.runs.map((x) => x.status), ["completed"]);
  assertEquals(first.additionalContext, ["first-run-context"]);
  assertEquals(second.runs.map((x) => [x.status, x.reason]), [["skipped", "once"]]);
  assertEquals(second.additionalContext, []);
  assertEquals(other.runs.map((x) => x.status), ["completed"], "another session runs it again");
});
