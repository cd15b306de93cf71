/**
 * `mind-hooks serve` (SPEC §13) driven as a subprocess by a JSON-RPC test client: pipelined
 * dispatches matched to ids, configuration reloads after a `trust` done by another process, bad
 * lines answered while serving goes on, stdio MCP servers opened once through the pool, async hooks
 * (semaphore, notification + next dispatch, exactly once), session end, shutdown and end of input.
 */
import { assert, assertEquals, assertMatch, assertRejects } from "./helpers/assert.ts";
import { stdioServerConfig } from "./helpers/mcp_server.ts";
import { HookServer } from "../src/serve/server.ts";
import { processGone } from "../fixtures/async/harness.ts";

const MAIN = decodeURIComponent(new URL("../main.ts", import.meta.url).pathname);
const CONFIG = decodeURIComponent(new URL("../deno.json", import.meta.url).pathname);
const CLI = ["run", "-q", "-P", "--no-prompt", "--config", CONFIG, MAIN];
/**
 * Hooks run as `$SHELL -lc`; a login bash can take hundreds of milliseconds to read its profile on
 * some machines, which would measure the machine, not serve. A login `sh` is the same contract.
 */
const ENV = { SHELL: "/bin/sh" };

type Json = Record<string, unknown>;
type Message = { jsonrpc: string; id?: unknown; result?: unknown; error?: { code: number; message: string } } & Json;

/** A JSON-RPC client over a `mind-hooks serve` child process. */
class ServeClient {
  readonly child: Deno.ChildProcess;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #pending = new Map<string, (m: Message) => void>();
  /** Every message received, in order. */
  readonly received: Message[] = [];
  readonly #waiters: (() => void)[] = [];
  readonly #reading: Promise<void>;
  #nextId = 1;

  constructor(args: string[]) {
    this.child = new Deno.Command(Deno.execPath(), {
      args: [...CLI, "serve", ...args],
      env: ENV,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    this.#writer = this.child.stdin.getWriter();
    this.#reading = this.#read();
  }

  async #read(): Promise<void> {
    let buf = "";
    for await (const chunk of this.child.stdout.pipeThrough(new TextDecoderStream())) {
      buf += chunk;
      let nl: number;
      while ((nl = buf.indexOf("\n")) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        const msg = JSON.parse(line) as Message;
        this.received.push(msg);
        if ("id" in msg) {
          const key = JSON.stringify(msg.id);
          const done = this.#pending.get(key);
          this.#pending.delete(key);
          done?.(msg);
        }
        for (const w of this.#waiters.splice(0)) w();
      }
    }
    assertEquals(buf, "", "serve ended with a partial line");
  }

  /** Sends raw text (a line break is added). */
  async sendRaw(line: string): Promise<void> {
    await this.#writer.write(new TextEncoder().encode(line + "\n"));
  }

  /** Sends a request without waiting; the promise settles with its response. */
  request(method: string, params?: unknown, id: string | number = this.#nextId++): Promise<Message> {
    const key = JSON.stringify(id);
    assert(!this.#pending.has(key), `duplicate id ${key}`);
    const answered = new Promise<Message>((resolve) => this.#pending.set(key, resolve));
    return this.sendRaw(JSON.stringify({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) }))
      .then(() => answered);
  }

  /** A request whose response must be a result. */
  async call(method: string, params?: unknown): Promise<Json> {
    const res = await this.request(method, params);
    assert(res.error === undefined, `${method} failed: ${JSON.stringify(res.error)}`);
    return res.result as Json;
  }

  /** Waits until `pred` holds over the received messages. */
  async until(pred: (received: Message[]) => boolean, timeoutMs = 20000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!pred(this.received)) {
      const left = deadline - Date.now();
      assert(left > 0, "timed out waiting for serve");
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        new Promise<void>((r) => this.#waiters.push(r)),
        new Promise<void>((r) => timer = setTimeout(r, Math.min(left, 200))),
      ]);
      clearTimeout(timer);
    }
  }

  /** The `hooks/asyncCompleted` notifications received so far. */
  asyncNotifications(): Json[] {
    return this.received.filter((m) => m.method === "hooks/asyncCompleted").map((m) => m.params as Json);
  }

  /** Closes stdin and waits for the exit; returns the exit code and stderr. */
  async end(): Promise<{ code: number; stderr: string }> {
    await this.#writer.close().catch(() => {});
    return await this.exit();
  }

  /** Waits for the process to exit (stdin left as it is). */
  async exit(): Promise<{ code: number; stderr: string }> {
    const [status, stderr] = await Promise.all([
      this.child.status,
      new Response(this.child.stderr).text(),
      this.#reading,
    ]);
    await this.#writer.close().catch(() => {});
    return { code: status.code, stderr };
  }
}

/** A fresh home (and a requirements path that does not exist, so /etc is never read). */
async function makeHome(hooks?: Json, configToml = ""): Promise<{ home: string; args: string[] }> {
  const home = await Deno.makeTempDir({ prefix: "serve_test_" });
  if (hooks) await Deno.writeTextFile(`${home}/hooks.json`, JSON.stringify({ hooks }, null, 2));
  if (configToml) await Deno.writeTextFile(`${home}/config.toml`, configToml);
  return { home, args: ["--home", home, "--requirements", `${home}/no-requirements.toml`] };
}

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [...CLI, ...args],
    env: ENV,
    stdout: "piped",
    stderr: "piped",
  })
    .output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

const COMMON = { transcript_path: null, cwd: "/", model: "m", permission_mode: "default" };

function prompt(sessionId: string, text: string, extra: Json = {}): Json {
  return {
    ...COMMON,
    session_id: sessionId,
    hook_event_name: "UserPromptSubmit",
    turn_id: "t",
    prompt: text,
    ...extra,
  };
}

function preTool(sessionId: string, toolName: string, extra: Json = {}): Json {
  return {
    ...COMMON,
    session_id: sessionId,
    hook_event_name: "PreToolUse",
    turn_id: "t",
    tool_name: toolName,
    tool_use_id: "u",
    tool_input: { cmd: "ls" },
    ...extra,
  };
}

async function readPids(dir: string): Promise<number[]> {
  const pids: number[] = [];
  for await (const e of Deno.readDir(dir)) {
    if (e.name.startsWith("pid-")) pids.push(Number((await Deno.readTextFile(`${dir}/${e.name}`)).trim()));
  }
  return pids.filter((p) => p > 0);
}

Deno.test("serve: 1,000 pipelined dispatches, each result matched to its id", async () => {
  const { home, args } = await makeHome({
    // `tr` prints the hook input without braces: plain text that names this event's prompt.
    UserPromptSubmit: [{ hooks: [{ type: "command", command: "tr -d '{}'" }] }],
  });
  const client = new ServeClient([...args, "--dangerously-bypass-hook-trust"]);
  try {
    const kinds = ["UserPromptSubmit", "PreToolUse", "SessionStart", "PostCompact"];
    const requests: Promise<Message>[] = [];
    for (let i = 0; i < 1000; i++) {
      // Every 20th event runs the hook; every event carries an unknown field named after it,
      // which comes back as a W_UNKNOWN_INPUT_FIELD warning — a per-request fingerprint.
      const kind = i % 20 === 0 ? "UserPromptSubmit" : kinds[1 + (i % 3)];
      const sid = `s${i % 7}`;
      const base = kind === "UserPromptSubmit"
        ? prompt(sid, `prompt-${i}`)
        : kind === "PreToolUse"
        ? preTool(sid, "shell_command", { tool_input: { command: `echo ${i}` } })
        : kind === "SessionStart"
        ? { ...COMMON, session_id: sid, hook_event_name: "SessionStart", source: "startup" }
        : {
          session_id: sid,
          transcript_path: null,
          cwd: "/",
          model: "m",
          hook_event_name: "PostCompact",
          turn_id: "t",
          trigger: "auto",
        };
      requests.push(client.request("dispatch", { ...base, [`extra_${i}`]: true }, i % 2 ? i : `req-${i}`));
    }
    const responses = await Promise.all(requests);
    for (let i = 0; i < 1000; i++) {
      const res = responses[i];
      assertEquals(res.id, i % 2 ? i : `req-${i}`);
      assertEquals(res.error, undefined, JSON.stringify(res.error));
      const r = res.result as Json & { warnings: { code: string; message: string }[]; additionalContext: string[] };
      const fingerprints = r.warnings.filter((w) => w.code === "W_UNKNOWN_INPUT_FIELD").map((w) => w.message);
      assertEquals(fingerprints.length, 1);
      assertMatch(fingerprints[0], new RegExp(`"extra_${i}"`));
      if (i % 20 === 0) {
        assertEquals(r.hook_event_name, "UserPromptSubmit");
        assertEquals(r.additionalContext.length, 1);
        assertMatch(r.additionalContext[0], new RegExp(`"prompt":"prompt-${i}"`));
      } else {
        assertEquals(r.additionalContext, []);
      }
    }
    // Exactly one response per request, nothing else.
    assertEquals(client.received.length, 1000);
    const end = await client.end();
    assertEquals(end.code, 0, end.stderr);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("serve: a trust done by another process applies to the next event", async () => {
  const { home, args } = await makeHome({
    UserPromptSubmit: [{ hooks: [{ type: "command", command: "echo from-the-hook" }] }],
  });
  const client = new ServeClient(args);
  try {
    const before = await client.call("dispatch", prompt("s1", "a"));
    assertEquals((before.runs as Json[]).map((r) => [r.status, r.reason]), [["skipped", "untrusted"]]);
    assertEquals(before.additionalContext, []);
    assertMatch((before.systemMessages as string[]).join("\n"), /1 hook needs review/);

    const trusted = await cli(["trust", "--all", ...args]);
    assertEquals(trusted.code, 0, trusted.stderr);

    const after = await client.call("dispatch", prompt("s1", "b"));
    assertEquals((after.runs as Json[]).map((r) => r.status), ["completed"]);
    assertEquals(after.additionalContext, ["from-the-hook"]);

    // Editing the hook makes it `modified`: skipped again, at the very next event.
    await Deno.writeTextFile(
      `${home}/hooks.json`,
      JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: "echo changed" }] }] } }),
    );
    const modified = await client.call("dispatch", prompt("s1", "c"));
    assertEquals((modified.runs as Json[]).map((r) => [r.status, r.reason]), [["skipped", "modified"]]);

    // hooks/list sees the same catalog, in the same shape as `mind-hooks list --json`.
    const list = await client.call("hooks/list");
    assertEquals((list.hooks as Json[]).length, 1);
    assertEquals((list.hooks as Json[])[0].status, "modified");
    assertEquals((list.hooks as Json[])[0].command, "echo changed");
    const cliList = await cli(["list", "--json", ...args]);
    assertEquals(cliList.code, 0, cliList.stderr);
    assertEquals(list, JSON.parse(cliList.stdout));
    assertEquals((await client.end()).code, 0);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("serve: bad lines get JSON-RPC errors and serving continues", async () => {
  const { home, args } = await makeHome();
  const client = new ServeClient(args);
  try {
    await client.sendRaw("this is not json");
    await client.sendRaw("[1, 2]");
    await client.sendRaw("42");
    await client.sendRaw(JSON.stringify({ jsonrpc: "1.0", id: 1, method: "dispatch" }));
    await client.sendRaw(JSON.stringify({ jsonrpc: "2.0", id: { no: 1 }, method: "dispatch" }));
    await client.sendRaw(JSON.stringify({ jsonrpc: "2.0", id: 2, method: 7 }));
    await client.sendRaw(JSON.stringify({ jsonrpc: "2.0", id: 3, method: "dispatch", params: "x" }));
    await client.sendRaw("");
    await client.sendRaw(JSON.stringify({ jsonrpc: "2.0", method: "no/such/notification" }));
    const unknown = await client.request("no/such/method", {}, 4);
    const badEvent = await client.request("dispatch", { hook_event_name: "Bogus" }, 5);
    const missing = await client.request("dispatch", { ...prompt("s", "x"), prompt: 5 }, 6);
    const badOptions = await client.request("dispatch", { ...prompt("s", "x"), options: { colour: "red" } }, 7);
    const badParams = await client.request("transcript/append", { session_id: "s" }, 8);
    const ok = await client.request("dispatch", prompt("s", "fine"), 9);

    assertEquals(unknown.error?.code, -32601);
    assertEquals(badEvent.error?.code, -32602);
    assertMatch(badEvent.error!.message, /unknown event "Bogus"/);
    assertEquals(missing.error?.code, -32602);
    assertMatch(missing.error!.message, /prompt/);
    assertEquals(badOptions.error?.code, -32602);
    assertMatch(badOptions.error!.message, /unknown option "colour"/);
    assertEquals(badParams.error?.code, -32602);
    assertEquals((ok.result as Json).hook_event_name, "UserPromptSubmit");

    const early = client.received.slice(0, 7).map((m) => [m.id, m.error?.code]);
    assertEquals(early, [
      [null, -32700],
      [null, -32600],
      [null, -32600],
      [1, -32600],
      [null, -32600],
      [2, -32600],
      [3, -32600],
    ]);
    // The empty line and the unknown notification got no answer; every other line got one.
    assertEquals(client.received.length, 13);
    assertEquals((await client.end()).code, 0);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("serve: stdio MCP server opened once through the pool, never restarted", async () => {
  const log = await Deno.makeTempFile({ prefix: "mcp_connections_" });
  const cfg = stdioServerConfig({ log });
  const toml = `[mcp_servers.local]\ncommand = ${JSON.stringify(cfg.command)}\nargs = ${JSON.stringify(cfg.args)}\n` +
    `startup_timeout_sec = 60\n[mcp_servers.local.env]\n` +
    Object.entries(cfg.env as Json).map(([k, v]) => `${k} = ${JSON.stringify(v)}\n`).join("");
  const { home, args } = await makeHome({
    PreToolUse: [
      {
        matcher: "^danger$",
        hooks: [{
          type: "mcp_tool",
          server: "local",
          tool: "deny",
          timeout: 60,
          input: { reason: "no ${tool_input.cmd}" },
        }],
      },
      { matcher: "^boom$", hooks: [{ type: "mcp_tool", server: "local", tool: "crash", timeout: 60 }] },
    ],
  }, toml);
  const trusted = await cli(["trust", "--all", ...args]);
  assertEquals(trusted.code, 0, trusted.stderr);
  const client = new ServeClient(args);
  try {
    const results = await Promise.all(
      Array.from(
        { length: 20 },
        (_, i) => client.call("dispatch", preTool(`s${i}`, "danger", { tool_input: { cmd: `rm ${i}` } })),
      ),
    );
    results.forEach((r, i) => {
      assertEquals(r.decision, "deny", JSON.stringify(r.runs));
      assertEquals(r.reason, `no rm ${i}`);
    });
    const again = await client.call("dispatch", preTool("s-later", "danger"));
    assertEquals(again.decision, "deny");
    const opened = (await Deno.readTextFile(log)).trim().split("\n");
    assertEquals(opened.length, 1, `the stdio server was started ${opened.length} times`);

    // The server dies mid-call: that handler fails, and later calls fail too — a hook never restarts it.
    const crashed = await client.call("dispatch", preTool("s-boom", "boom"));
    assertEquals((crashed.runs as Json[])[0].status, "failed");
    assertEquals(crashed.decision, null);
    const after = await client.call("dispatch", preTool("s-after", "danger"));
    assertEquals(after.decision, null);
    assertEquals((after.runs as Json[])[0].status, "failed");
    assertMatch(String((after.runs as Json[])[0].reason), /closed the connection/);
    assertEquals((await Deno.readTextFile(log)).trim().split("\n").length, 1);

    // A one-shot dispatch in the same home does not start it either.
    const oneShot = new Deno.Command(Deno.execPath(), {
      args: [...CLI, "dispatch", ...args],
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const w = oneShot.stdin.getWriter();
    await w.write(new TextEncoder().encode(JSON.stringify(preTool("s-one", "danger"))));
    await w.close();
    const out = await oneShot.output();
    const r = JSON.parse(new TextDecoder().decode(out.stdout));
    assertMatch(r.runs[0].reason, /not connected/);
    assertEquals((await Deno.readTextFile(log)).trim().split("\n").length, 1);
    assertEquals((await client.end()).code, 0);
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(log);
  }
});

Deno.test("serve: async hooks — at most 8 at once per session, each result delivered once per channel", async () => {
  const { home, args } = await makeHome();
  const trace = `${home}/trace`;
  const handlers = Array.from({ length: 12 }, (_, i) => ({
    type: "command",
    async: true,
    command: `echo start >> ${trace}; sleep 1.5; echo end >> ${trace}; ` +
      `echo '{"systemMessage":"async ${i} done","hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"ctx ${i}"}}'`,
  }));
  await Deno.writeTextFile(
    `${home}/hooks.json`,
    JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: handlers }] } }),
  );
  const client = new ServeClient([...args, "--dangerously-bypass-hook-trust"]);
  try {
    const started = performance.now();
    const first = await client.call("dispatch", prompt("sa", "go"));
    assert(performance.now() - started < 2000, "dispatch waited for its async hooks");
    assertEquals((first.runs as Json[]).map((r) => r.status), Array(12).fill("started"));
    assertEquals(first.asyncResults, []);

    await client.until(() => client.asyncNotifications().length === 12);
    const notified = client.asyncNotifications();
    assert(notified.every((n) => n.session_id === "sa" && (n.results as Json[]).length === 1));
    const messages = notified.map((n) => (n.results as Json[])[0].systemMessage).sort();
    assertEquals(messages, Array.from({ length: 12 }, (_, i) => `async ${i} done`).sort());

    // At most 8 ran at once, and the 8 slots were really used.
    let running = 0;
    let peak = 0;
    for (const line of (await Deno.readTextFile(trace)).trim().split("\n")) {
      running += line === "start" ? 1 : -1;
      peak = Math.max(peak, running);
    }
    assertEquals(peak, 8);

    // Another session gets nothing; this session's next dispatch gets all 12, the one after none.
    const other = await client.call("dispatch", prompt("sb", "x"));
    assertEquals(other.asyncResults, []);
    await Deno.writeTextFile(`${home}/hooks.json`, JSON.stringify({ hooks: {} }));
    const second = await client.call("dispatch", prompt("sa", "again"));
    const delivered = second.asyncResults as Json[];
    assertEquals(delivered.length, 12);
    assertEquals(
      delivered.map((r) => r.additionalContext).sort(),
      Array.from({ length: 12 }, (_, i) => `ctx ${i}`).sort(),
    );
    assert(delivered.every((r) => r.status === "completed"));
    const third = await client.call("dispatch", prompt("sa", "once more"));
    assertEquals(third.asyncResults, []);
    assertEquals(client.asyncNotifications().length, 12);
    assertEquals((await client.end()).code, 0);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("serve: session/end kills the session's async hooks, deletes its spills, keeps others", async () => {
  const { home, args } = await makeHome();
  const temp = await Deno.makeTempDir({ prefix: "serve_spill_" });
  await Deno.writeTextFile(
    `${home}/hooks.json`,
    JSON.stringify({
      hooks: {
        UserPromptSubmit: [{
          hooks: [{ type: "command", async: true, command: `echo $$ > ${home}/pid-$$; exec sleep 30` }],
        }],
      },
    }),
  );
  const client = new ServeClient([...args, "--temp-dir", temp, "--dangerously-bypass-hook-trust"]);
  try {
    await client.call("dispatch", prompt("doomed", "go"));
    await client.call("dispatch", prompt("survivor", "go"));
    let pids: number[] = [];
    for (let i = 0; i < 200 && pids.length < 2; i++) {
      await new Promise((r) => setTimeout(r, 50));
      pids = await readPids(home);
    }
    assertEquals(pids.length, 2);
    await Deno.mkdir(`${temp}/hook_outputs/doomed`, { recursive: true });
    await Deno.writeTextFile(`${temp}/hook_outputs/doomed/x.txt`, "spilled");
    await Deno.mkdir(`${temp}/hook_outputs/survivor`, { recursive: true });

    const ended = await client.call("session/end", { session_id: "doomed" });
    assertEquals(ended.killed, 1);
    await assertRejects(Deno.stat(`${temp}/hook_outputs/doomed`));
    await Deno.stat(`${temp}/hook_outputs/survivor`);
    assertEquals(pids.filter((pid) => !processGone(pid)).length, 1, "exactly the ended session's hook is gone");
    // Its result is discarded: no notification ever comes for it.
    await new Promise((r) => setTimeout(r, 300));
    assertEquals(client.asyncNotifications().length, 0);

    // Shutdown ends the remaining session: its async hook dies too, and the process exits 0.
    const bye = await client.request("shutdown");
    assertEquals(bye.result, null);
    const { code, stderr } = await client.exit();
    assertEquals(code, 0, stderr);
    assertEquals(pids.filter((pid) => !processGone(pid)).length, 0, "an async hook survived shutdown");
    await assertRejects(Deno.stat(`${temp}/hook_outputs/survivor`));
  } finally {
    for (const pid of await readPids(home).catch(() => [])) {
      try {
        Deno.kill(pid, "SIGKILL");
      } catch { /* gone */ }
    }
    await Deno.remove(home, { recursive: true });
    await Deno.remove(temp, { recursive: true });
  }
});

Deno.test("serve: end of input answers what is pending, then exits 0; transcript/append writes lines", async () => {
  const { home, args } = await makeHome({
    UserPromptSubmit: [{ hooks: [{ type: "command", command: "sleep 0.3; echo slow-context" }] }],
  });
  const client = new ServeClient([...args, "--dangerously-bypass-hook-trust"]);
  try {
    const sid = "0190b3c8-8c4a-7abc-9def-0123456789ab";
    const appended = await Promise.all([
      client.call("transcript/append", { session_id: sid, event: "session.started", payload: {} }),
      client.call("transcript/append", {
        session_id: sid,
        event: "message.created",
        turn_id: "t1",
        actor: "user",
        payload: { content: "hello" },
      }),
    ]);
    assertEquals(appended[0].path, appended[1].path);
    const bad = await client.request("transcript/append", { session_id: sid, event: "no.such.event", payload: {} });
    assertEquals(bad.error?.code, -32602);

    const pending = client.request("dispatch", prompt(sid, "last"));
    const { code, stderr } = await client.end();
    assertEquals(code, 0, stderr);
    const res = await pending;
    assertEquals((res.result as Json).additionalContext, ["slow-context"]);

    const lines = (await Deno.readTextFile(String(appended[0].path))).trim().split("\n").map((l) => JSON.parse(l));
    assertEquals(lines.map((l) => [l.event, l.actor, l.payload]), [
      ["session.started", null, {}],
      ["message.created", "user", { content: "hello" }],
    ]);
    assertMatch(String(appended[0].path), /sessions\/2024\/07\/15\/session-/);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("serve (in process): configuration is read once, and again only when a file changes", async () => {
  const { home } = await makeHome({
    UserPromptSubmit: [{ hooks: [{ type: "command", command: "echo one" }] }],
  });
  // Files older than the racy window, as a real user's configuration is.
  const past = new Date(Date.now() - 60_000);
  await Deno.utime(`${home}/hooks.json`, past, past);
  const out: string[] = [];
  const server = new HookServer({
    defaults: { home, requirements: `${home}/none.toml`, bypassTrust: true },
    env: { SHELL: "/bin/sh" },
    processCwd: home,
    write: (bytes) => {
      out.push(...new TextDecoder().decode(bytes).trim().split("\n"));
      return Promise.resolve();
    },
  });
  let id = 0;
  const ask = async (text: string) => {
    const me = ++id;
    await server.handleLine(JSON.stringify({ jsonrpc: "2.0", id: me, method: "dispatch", params: prompt("c", text) }));
    const line = out.map((l) => JSON.parse(l)).find((m) => m.id === me);
    assert(line?.result, JSON.stringify(line));
    return line.result as { additionalContext: string[] };
  };
  try {
    for (let i = 0; i < 10; i++) assertEquals((await ask(`p${i}`)).additionalContext, ["one"]);
    assertEquals(server.configLoads, 1);

    await Deno.writeTextFile(
      `${home}/hooks.json`,
      JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: "echo two" }] }] } }),
    );
    assertEquals((await ask("after")).additionalContext, ["two"]);
    const loads = server.configLoads;
    assert(loads >= 2);
    // Once the change is older than the racy window, the cache holds again.
    await new Promise((r) => setTimeout(r, 120));
    await ask("settle");
    const settled = server.configLoads;
    for (let i = 0; i < 5; i++) await ask(`q${i}`);
    assertEquals(server.configLoads, settled);
    assert(settled <= loads + 1);
  } finally {
    await server.shutdown();
    await Deno.remove(home, { recursive: true });
  }
});
