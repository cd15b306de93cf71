/**
 * The sandbox (SPEC §15, SECURITY.md): the declared permission set, the per-run plan, the Worker
 * that enforces it (proved by `doctor`), the dispatch fast path, loader variables (LD_*), process-
 * group kills without `Deno.kill`, MCP hosts, and exit codes relayed from the Worker.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "./helpers/assert.ts";
import {
  cmd,
  dispatch,
  event,
  group,
  makeHome,
  makeProject,
  REPO,
  runCli,
  shq,
  trustProject,
  writeHooksJson,
} from "./helpers/cli.ts";
import { buildPlan, loaderVariables } from "../src/sandbox/plan.ts";
import { COMMANDS, COMMON_OPTIONS, parseCommandLine } from "../src/cli/commands.ts";
import { parseArgs } from "../src/util/args.ts";
import { permissionLines } from "../src/cli/doctor.ts";
import { netTarget } from "../src/sandbox/mcp_plan.ts";
import { sandboxReason, workerOptions } from "../src/sandbox/launch.ts";
import { loadCatalog } from "../src/config/discovery.ts";
import { isStrangerRefusal } from "../src/config/fast_path_guard.ts";
import { signalGroup, signalProcess } from "../src/runner/shell.ts";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const DENO_JSON = JSON.parse(await Deno.readTextFile(join(REPO, "deno.json")));

/** This user's folder in a temp root (the Stop guard's fallback). */
const UID_FOLDER = (temp: string) => `${temp}/mind-hooks-${Deno.uid()}`;

Deno.test("deno.json: one declared set, no allow-all, no ffi, sys only uid, prompts off, worker-options on", () => {
  const set = DENO_JSON.permissions.default;
  assertEquals(Object.keys(DENO_JSON.permissions), ["default"]);
  assert(!("ffi" in set), "ffi must not be granted");
  // Deno.uid() alone: the spill folder's owner check (src/output/spill_folder.ts).
  assertEquals(set.sys, ["uid"]);
  assert(!("all" in set), "no allow-all");
  assert(DENO_JSON.unstable.includes("worker-options"));
  // The task passes the caller's directory on (MIND_HOOKS_INVOKED_FROM), then runs main.ts with the set.
  assertMatch(
    DENO_JSON.tasks["mind-hooks"],
    /^MIND_HOOKS_INVOKED_FROM="\$INIT_CWD" deno run -q -P --no-prompt main\.ts$/,
  );
});

Deno.test("deno compile embeds the declared set and the worker-options feature", async () => {
  // The runtime base binary cannot be downloaded here; any ELF file stands in for it, and the
  // metadata deno compile appends is what a compiled binary starts from.
  const dir = await Deno.makeTempDir({ prefix: "mind-compile-" });
  try {
    const base = join(dir, "base");
    await Deno.copyFile(Deno.execPath().includes("deno") ? "/bin/true" : Deno.execPath(), base);
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["compile", "-q", "-P", "--no-prompt", "--no-check", "-o", join(dir, "bin"), join(REPO, "main.ts")],
      cwd: REPO,
      env: { DENORT_BIN: base },
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert(out.success, new TextDecoder().decode(out.stderr));
    const bytes = await Deno.readFile(join(dir, "bin"));
    const text = new TextDecoder("latin1").decode(bytes);
    assertMatch(text, /"features":\["worker-options"\]/);
    const perms = text.match(/"permissions":\{"allow_env"[^}]*\}/)?.[0] ?? "";
    assertStringIncludes(perms, '"allow_ffi":null', "ffi stays denied in the binary");
    assertStringIncludes(perms, '"allow_sys":["uid"]');
    assertStringIncludes(perms, '"prompt":false');
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("plan: dispatch reads the home, the .mind chain, requirements and spill; writes home and spill only", async () => {
  await using home = await makeHome();
  await using proj = await makeProject();
  const plan = await buildPlan({
    command: "dispatch",
    needs: COMMANDS.get("dispatch")!.sandbox,
    args: parseCommandLine("dispatch", ["--home", home.path, "--requirements", "/nonexistent/req.toml"]),
    env: { SHELL: "/bin/bash", MIND_TEMP_DIR: "/tmp/spill-root" },
    processCwd: "/",
    eventCwd: proj.path,
  });
  const read = plan.read as string[];
  for (const p of [home.path, "/nonexistent/req.toml", proj.mindDir, "/.mind", "/tmp/spill-root/hook_outputs"]) {
    assert(read.includes(p), `read should include ${p}: ${read}`);
  }
  assert(!read.includes(proj.path), "the project tree itself is not granted (its path is already real)");
  // The temp root does not exist: it is granted too, so that the run can create it for its spill
  // folder as the fast path does; an existing one is never granted (below).
  // And this user's folder there: the Stop guard's fallback counters (SPEC §6 r4).
  assertEquals(plan.write, [
    home.path,
    "/tmp/spill-root/hook_outputs",
    UID_FOLDER("/tmp/spill-root"),
    "/tmp/spill-root",
  ]);
  const existing = await buildPlan({
    command: "dispatch",
    needs: COMMANDS.get("dispatch")!.sandbox,
    args: parseCommandLine("dispatch", ["--home", home.path, "--temp-dir", home.path]),
    env: { SHELL: "/bin/bash" },
    processCwd: "/",
    eventCwd: proj.path,
  });
  assertEquals(existing.write, [home.path, `${home.path}/hook_outputs`, UID_FOLDER(home.path)]);
  assertEquals(plan.net, false);
  assert(Array.isArray(plan.run));
  assert((plan.run as string[]).includes("/bin/bash") && (plan.run as string[]).includes("/bin/sh"));
  assertEquals(plan.sys, ["uid"]);
  assertEquals(plan.ffi, false);
});

Deno.test("plan: schema reads and writes nothing; serve reads anywhere but writes only home and spill", async () => {
  const schema = await buildPlan({
    command: "schema",
    needs: COMMANDS.get("schema")!.sandbox,
    args: parseCommandLine("schema", ["config"]),
    env: {},
    processCwd: "/",
  });
  assertEquals([schema.read, schema.write, schema.run, schema.net], [false, false, false, false]);
  const serve = await buildPlan({
    command: "serve",
    needs: COMMANDS.get("serve")!.sandbox,
    args: parseCommandLine("serve", ["--home", "/h"]),
    env: { TMPDIR: "/t" },
    processCwd: "/",
  });
  assertEquals(serve.read, true);
  assertEquals(serve.write, ["/h", "/t/hook_outputs", UID_FOLDER("/t"), "/t"]);
  const list = await buildPlan({
    command: "list",
    needs: COMMANDS.get("list")!.sandbox,
    args: parseCommandLine("list", ["--home", "/h"]),
    env: {},
    processCwd: "/",
  });
  assertEquals(list.run, false);
  assertEquals(list.write, ["/h"]);
});

Deno.test("plan: a loader variable (LD_*, DYLD_*) makes run unrestricted, with a note; nothing else widens", async () => {
  assertEquals(loaderVariables({ LD_PRELOAD: "x", DYLD_INSERT_LIBRARIES: "y", PATH: "/bin" }), [
    "DYLD_INSERT_LIBRARIES",
    "LD_PRELOAD",
  ]);
  const plan = await buildPlan({
    command: "dispatch",
    needs: COMMANDS.get("dispatch")!.sandbox,
    args: parseCommandLine("dispatch", ["--home", "/h"]),
    env: { LD_LIBRARY_PATH: "/opt/lib" },
    processCwd: "/",
  });
  assertEquals(plan.run, true);
  assertMatch(plan.notes.join("\n"), /LD_LIBRARY_PATH/);
  assert(Array.isArray(plan.read) && Array.isArray(plan.write));
  assertEquals(plan.net, false);
});

Deno.test("plan: a lenient parse never throws; MCP URLs become host:port", () => {
  assertEquals(parseArgs(["--home=/a", "-c", "x=1", "--bogus", "pos"], COMMON_OPTIONS, true).options.home, "/a");
  assertEquals(parseArgs(["--home"], COMMON_OPTIONS, true).options.home, undefined);
  assertEquals(netTarget("http://127.0.0.1:8123/mcp"), "127.0.0.1:8123");
  assertEquals(netTarget("https://mcp.example.test/x"), "mcp.example.test:443");
  assertEquals(netTarget("file:///etc/passwd"), null);
  assertEquals(netTarget("not a url"), null);
});

Deno.test("fast path: only without a trusted project layer, plugins or --hooks-file", async () => {
  await using home = await makeHome();
  await using proj = await makeProject();
  const bare = await Deno.makeTempDir({ prefix: "mind-bare-" });
  try {
    const plan = (cwd: string) =>
      buildPlan({
        command: "dispatch",
        needs: COMMANDS.get("dispatch")!.sandbox,
        args: parseCommandLine("dispatch", ["--home", home.path]),
        env: {},
        processCwd: "/",
        eventCwd: cwd,
      });
    assertEquals(await sandboxReason(await plan(bare), parseCommandLine("dispatch", [])), null);
    // An untrusted project's files are never parsed: still the fast path.
    assertEquals(await sandboxReason(await plan(proj.path), parseCommandLine("dispatch", [])), null);
    // Named in the user's config (as `project trust` writes it) or on the command line: the Worker.
    assertMatch(
      (await sandboxReason(
        await plan(proj.path),
        parseCommandLine("dispatch", ["-c", `projects."${proj.path}".trust_level="trusted"`]),
      ))!,
      /project layer/,
    );
    await Deno.writeTextFile(
      join(home.path, "config.toml"),
      `[projects.${JSON.stringify(proj.path)}]\ntrust_level = "trusted"\n`,
    );
    assertMatch((await sandboxReason(await plan(proj.path), parseCommandLine("dispatch", [])))!, /project layer/);
    assertMatch(
      (await sandboxReason(await plan(bare), parseCommandLine("dispatch", ["--hooks-file", "/x.json"])))!,
      /hooks-file/,
    );
    // A cwd reached through a symlink: the engine searches the real path's ancestors, so must this.
    await Deno.mkdir(join(proj.path, "sub"));
    await Deno.symlink(join(proj.path, "sub"), join(bare, "link"));
    assertMatch(
      (await sandboxReason(await plan(join(bare, "link")), parseCommandLine("dispatch", [])))!,
      /project layer/,
    );
    // A plugin folder alone is not loaded; a plugin configured in the user's config.toml is.
    await Deno.mkdir(join(home.path, "plugins", "p"), { recursive: true });
    await Deno.writeTextFile(join(home.path, "config.toml"), "");
    assertEquals(await sandboxReason(await plan(bare), parseCommandLine("dispatch", [])), null);
    await Deno.writeTextFile(join(home.path, "config.toml"), `[plugins.p]\nenabled = true\n`);
    assertMatch((await sandboxReason(await plan(bare), parseCommandLine("dispatch", [])))!, /plugins/);
    assertMatch(
      (await sandboxReason(await plan(bare), parseCommandLine("dispatch", ["-c", "plugins.p.enabled=true"])))!,
      /plugins/,
    );
  } finally {
    await Deno.remove(bare, { recursive: true });
  }
});

Deno.test("fast path: decided from the parsed configuration — a trusted project path written with escapes is found", async () => {
  await using home = await makeHome();
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "mind-esc-" }));
  try {
    // DEL (and a BEL) in the folder name: `project trust` writes them escaped (\u007f), so the
    // text of config.toml never holds the path as it is.
    const dir = join(base, "repo\u007fdel\u0007");
    await writeHooksJson(join(dir, ".mind"), { UserPromptSubmit: [group([cmd("echo hi")])] });
    const plan = await buildPlan({
      command: "dispatch",
      needs: COMMANDS.get("dispatch")!.sandbox,
      args: parseCommandLine("dispatch", ["--home", home.path]),
      env: {},
      processCwd: "/",
      eventCwd: dir,
    });
    assertEquals(await sandboxReason(plan, parseCommandLine("dispatch", [])), null, "not trusted yet: the fast path");
    assertEquals((await runCli(["project", "trust", dir, "--home", home.path])).code, 0);
    const config = await Deno.readTextFile(join(home.path, "config.toml"));
    assert(!config.includes(dir) && config.includes("\\u007f"), config);
    assertMatch((await sandboxReason(plan, parseCommandLine("dispatch", [])))!, /trusted project layer/);
    // Hand-written escapes a text search cannot see: \U and a literal key beside a basic one.
    const emoji = join(base, "repo 🎉");
    await writeHooksJson(join(emoji, ".mind"), { Stop: [group([cmd("echo hi")])] });
    await Deno.writeTextFile(
      join(home.path, "config.toml"),
      `[projects."${base}/repo \\U0001F389"]\ntrust_level = "trusted"\n`,
    );
    const emojiPlan = await buildPlan({
      command: "dispatch",
      needs: COMMANDS.get("dispatch")!.sandbox,
      args: parseCommandLine("dispatch", ["--home", home.path]),
      env: {},
      processCwd: "/",
      eventCwd: emoji,
    });
    assertMatch((await sandboxReason(emojiPlan, parseCommandLine("dispatch", [])))!, /trusted project layer/);
    // A project the user marked untrusted, and one named only in a comment, stay on the fast path.
    await Deno.writeTextFile(
      join(home.path, "config.toml"),
      `# [projects."${base}/repo 🎉"] trust_level = "trusted"\n[projects."${base}/repo 🎉"]\ntrust_level = "untrusted"\n`,
    );
    assertEquals(await sandboxReason(emojiPlan, parseCommandLine("dispatch", [])), null);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("doctor: prints the permission set and proves read, write and net are denied", async () => {
  await using home = await makeHome();
  await using proj = await makeProject();
  const res = await runCli(["doctor", "--home", home.path], { cwd: proj.path });
  assertEquals(res.stderr, "");
  const out = res.stdout;
  assertMatch(out, /read {2}.*\.mind/);
  assertMatch(out, /write .*hook_outputs/);
  assertMatch(out, /net {4}none/);
  assertMatch(out, /ok {3}read \/etc\/passwd: denied by Deno/);
  assertMatch(out, /ok {3}write .*mind-hooks-doctor-.*: denied by Deno/);
  assertMatch(out, /ok {3}connect 192\.0\.2\.1:80: denied by Deno/);
  assert(!out.includes("FAIL"), out);
  assertMatch(out, /shell: \/bin\/sh -lc starts in \d+ ms/);
  // The project exists but is not trusted: that is something to fix.
  assertMatch(out, /fix: the project's hooks are not loaded: mind-hooks project trust /);
  assertEquals(res.code, 1);
});

Deno.test("doctor: a clean home has nothing to fix (exit 0); a broken file is named with its fix", async () => {
  await using home = await makeHome();
  const bare = await Deno.makeTempDir({ prefix: "mind-bare-" });
  try {
    // A home of its own and no agent host on PATH: doctor's hosts check finds nothing to fix either.
    const hermetic = { HOME: bare, PATH: "/usr/bin:/bin" };
    const ok = await runCli(["doctor", "--home", home.path], { cwd: bare, env: hermetic });
    assertEquals(ok.code, 0, ok.stdout);
    assertStringIncludes(ok.stdout, "nothing to fix");
    assertStringIncludes(ok.stdout, "takes the fast path");
    await Deno.writeTextFile(join(home.path, "hooks.json"), '{"hooks": {"Stop": [ }');
    const bad = await runCli(["doctor", "--home", home.path], { cwd: bare, env: hermetic });
    assertEquals(bad.code, 1);
    assertMatch(bad.stdout, /W_PARSE/);
    assertMatch(bad.stdout, /fix: fix .*hooks\.json:1 \(W_PARSE\)/);
  } finally {
    await Deno.remove(bare, { recursive: true });
  }
});

Deno.test("doctor: a loader variable shows run as unrestricted and says why", async () => {
  await using home = await makeHome();
  await using proj = await makeProject();
  const res = await runCli(["doctor", "--home", home.path], {
    cwd: proj.path,
    env: { LD_LIBRARY_PATH: "/nonexistent-mind" },
  });
  assertMatch(res.stdout, /run {4}unrestricted/);
  assertMatch(res.stdout, /note: run is unrestricted because LD_LIBRARY_PATH is set/);
  assert(!res.stdout.includes("FAIL"), res.stdout);
});

/** A trusted project whose UserPromptSubmit hook runs `command` (plain stdout becomes context). */
async function projectWithHook(home: string, command: string, extra: Record<string, unknown> = {}) {
  const proj = await makeProject();
  await writeHooksJson(proj.mindDir, { UserPromptSubmit: [group([cmd(command, extra)])] });
  await trustProject(home, proj.path);
  return proj;
}

Deno.test("sandboxed dispatch: hooks keep the user's rights and a loader variable reaches them", async () => {
  await using home = await makeHome();
  const outside = await Deno.makeTempDir({ prefix: "mind-hook-writes-" });
  try {
    const marker = join(outside, "written-by-hook");
    await using proj = await projectWithHook(
      home.path,
      `cat >/dev/null; echo x > ${shq(marker)}; echo "lib=$LD_LIBRARY_PATH"`,
    );
    const res = await dispatch(home.path, event("UserPromptSubmit", { cwd: proj.path }), [], {
      env: { LD_LIBRARY_PATH: "/nonexistent-mind" },
    });
    assertEquals(res.runs.map((r) => r.status), ["completed"]);
    assertEquals(res.additionalContext, ["lib=/nonexistent-mind"]);
    // The hook (not the engine) wrote outside the engine's folders: hooks are the user's programs.
    assertEquals(await Deno.readTextFile(marker), "x\n");
  } finally {
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("sandboxed dispatch: a hook past its timeout is killed with its process group", async () => {
  await using home = await makeHome();
  const dir = await Deno.makeTempDir({ prefix: "mind-kill-" });
  try {
    const pidFile = join(dir, "pid");
    // A grandchild in the hook's process group records its pid; the group kill must reach it.
    await using proj = await projectWithHook(
      home.path,
      `cat >/dev/null; sleep 30 & echo $! > ${shq(pidFile)}; wait`,
      { timeout: 1 },
    );
    const started = performance.now();
    const res = await dispatch(home.path, event("UserPromptSubmit", { cwd: proj.path }));
    const ms = performance.now() - started;
    assertEquals(res.runs[0].status, "failed");
    assertMatch(res.runs[0].reason ?? "", /timeout/);
    assert(ms < 1000 + 2000 + 1500, `dispatch took ${ms} ms`);
    const pid = Number(await Deno.readTextFile(pidFile));
    let alive = true;
    for (let i = 0; i < 40 && alive; i++) {
      try {
        Deno.kill(pid, "SIGCONT");
        await new Promise((r) => setTimeout(r, 50));
      } catch {
        alive = false;
      }
    }
    assert(!alive, `grandchild ${pid} survived the timeout kill`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/**
 * A script file for a child `deno run` with narrowed permissions (`deno eval` would not do: it runs
 * with every permission, so `Deno.kill` would work there and no fallback would be tested).
 */
async function scriptFile(text: string): Promise<string> {
  const file = await Deno.makeTempFile({ prefix: "mind-hooks-script-", suffix: ".ts" });
  await Deno.writeTextFile(file, text);
  return file;
}

Deno.test("signalGroup: falls back to /bin/sh's kill where Deno.kill is not permitted", async () => {
  // A child Deno with run limited to /bin/sh (as in the sandbox) signals a detached group.
  const script = `
    import { signalGroup, signalProcess } from ${JSON.stringify(join(REPO, "src/runner/shell.ts"))};
    const c = new Deno.Command("/bin/sh", { args: ["-c", "sleep 30"], detached: true }).spawn();
    signalGroup(c.pid, 0);
    signalProcess(c.pid, 0);
    signalGroup(c.pid, "SIGKILL");
    const s = await c.status;
    // A group that does not exist (pids stay below 2^22 on Linux): ESRCH becomes NotFound.
    let gone = false;
    try { signalGroup(4194300, 0); } catch (e) { gone = e instanceof Deno.errors.NotFound; }
    console.log(JSON.stringify({ signal: s.signal, gone }));
  `;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", "--allow-run=/bin/sh", "--allow-read", await scriptFile(script)],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert(out.success, new TextDecoder().decode(out.stderr));
  assertEquals(JSON.parse(new TextDecoder().decode(out.stdout)), { signal: "SIGKILL", gone: true });
  assertEquals([typeof signalGroup, typeof signalProcess], ["function", "function"]);
});

Deno.test("killProcessTree under a narrowed run signals through /bin/sh without a synchronous spawn", async () => {
  // A synchronous spawn blocks the event loop (~3 ms each, one probe every 25 ms of the grace period)
  // while the other hooks' output is being read: outputSync is made to throw here.
  const script = `
    import { killProcessTree } from ${JSON.stringify(join(REPO, "src/runner/shell.ts"))};
    Deno.Command.prototype.outputSync = () => { throw new Error("a synchronous spawn"); };
    const c = new Deno.Command("/bin/sh", { args: ["-c", "trap '' TERM; sleep 30 & wait"], detached: true }).spawn();
    await new Promise((r) => setTimeout(r, 100));
    await killProcessTree(c.pid, "posix", 200);
    const s = await c.status;
    console.log(JSON.stringify({ signal: s.signal }));
  `;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", "--allow-run=/bin/sh", "--allow-read", await scriptFile(script)],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert(out.success, new TextDecoder().decode(out.stderr));
  assertEquals(JSON.parse(new TextDecoder().decode(out.stdout)), { signal: "SIGKILL" });
});

Deno.test("sandboxed commands relay exit codes: usage error 1 with one line; unknown command unaffected", async () => {
  await using home = await makeHome();
  const bad = await runCli(["list", "--home", home.path, "--bogus"]);
  assertEquals(bad.code, 1);
  assertEquals(bad.stderr.trim().split("\n").length, 1);
  assertMatch(bad.stderr, /^mind-hooks: unknown option --bogus/);
  const sandboxedBadStdin = await runCli(["dispatch", "--home", home.path], {
    stdin: "{not json",
    env: { MIND_HOOKS_SANDBOX: "always" },
  });
  assertEquals(sandboxedBadStdin.code, 1);
  assertMatch(sandboxedBadStdin.stderr, /^mind-hooks: stdin is not valid JSON/);
});

Deno.test("serve in the sandbox: shutdown exits 0 through the Worker's Deno.exit", async () => {
  await using home = await makeHome();
  const res = await runCli(["serve", "--home", home.path], {
    stdin: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "shutdown" }) + "\n",
  });
  assertEquals(res.code, 0, res.stderr);
  assertMatch(res.stdout, /"id":1/);
});

Deno.test("HTTP MCP servers: their host (only) is granted net, and the engine reaches it from the sandbox", async () => {
  await using home = await makeHome();
  // A bare TCP listener stands in for the server: what matters is that the sandboxed engine's
  // connection arrives (Deno allowed it); the call itself then fails as a transport error.
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  let connections = 0;
  const serving = (async () => {
    for await (const conn of listener) {
      connections++;
      const body = "not an MCP server";
      await conn.write(
        new TextEncoder().encode(
          `HTTP/1.1 500 Oops\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`,
        ),
      ).catch(() => {});
      conn.close();
    }
  })().catch(() => {});
  try {
    const url = `http://127.0.0.1:${port}/mcp`;
    await Deno.writeTextFile(join(home.path, "config.toml"), `[mcp_servers.scan]\nurl = ${JSON.stringify(url)}\n`);
    await using proj = await makeProject();
    await writeHooksJson(proj.mindDir, {
      UserPromptSubmit: [group([{ type: "mcp_tool", server: "scan", tool: "text", timeout: 5 }])],
    });
    await trustProject(home.path, proj.path);
    const doc = await runCli(["doctor", "--home", home.path], { cwd: proj.path });
    assertMatch(doc.stdout, new RegExp(`net {4}127\\.0\\.0\\.1:${port}\\n`));
    assertMatch(doc.stdout, /ok {3}connect 192\.0\.2\.1:80: denied by Deno/);
    const res = await dispatch(home.path, event("UserPromptSubmit", { cwd: proj.path, prompt: "hi" }));
    assertEquals(res.runs.map((r) => r.status), ["failed"]);
    assert(!/NotCapable|Requires net access/i.test(res.runs[0].reason ?? ""), res.runs[0].reason ?? "");
    assert(connections > 0, `the engine never connected to the configured MCP host: ${JSON.stringify(res.runs)}`);
  } finally {
    listener.close();
    await serving;
  }
});

Deno.test("fast path: dispatch without strangers' files keeps the static set minus the network", async () => {
  await using home = await makeHome();
  // A stand-in command run through runInSandbox on the fast path (the Worker path runs main.ts's own
  // commands, and doctor proves it): it tries a connection and a write, as a buggy engine might.
  const stray = join(home.path, "..", `mind-fast-path-${crypto.randomUUID()}`);
  const script = `
    import { runInSandbox } from ${JSON.stringify(join(REPO, "src/sandbox/launch.ts"))};
    const probe = async (io) => {
      const out = [];
      try { (await Deno.connect({ hostname: "127.0.0.1", port: 9 })).close(); out.push("net:open"); }
      catch (e) { out.push("net:" + e.constructor.name); }
      try { await Deno.writeTextFile(${JSON.stringify(stray)}, "x"); out.push("write:ok"); }
      catch (e) { out.push("write:" + e.constructor.name); }
      console.log(out.join(" "), JSON.parse(new TextDecoder().decode(await io.stdin())).cwd !== undefined);
      return 0;
    };
    const args = { options: { home: ${JSON.stringify(home.path)} }, positionals: [] };
    Deno.exitCode = await runInSandbox("dispatch", { reads: "config", event: true }, args, probe);
  `;
  const file = join(home.path, "probe.ts");
  await Deno.writeTextFile(file, script);
  const bare = await Deno.makeTempDir({ prefix: "mind-bare-" });
  try {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-q", "-P", "--no-prompt", "--config", join(REPO, "deno.json"), file],
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
      env: { SHELL: "/bin/sh" },
    }).spawn();
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(JSON.stringify({ cwd: bare })));
    await w.close();
    const out = await child.output();
    assert(out.success, new TextDecoder().decode(out.stderr));
    // The network is revoked; the static set still writes (only the Worker narrows paths); the
    // event read by the launcher is replayed as the command's stdin.
    assertEquals(new TextDecoder().decode(out.stdout).trim(), "net:NotCapable write:ok true");
  } finally {
    await Deno.remove(bare, { recursive: true });
    await Deno.remove(stray).catch(() => {});
  }
});

// A dotfile manager's link: ~/.mind/config.toml -> ~/dotfiles/mind.toml (symlinks need privileges on Windows).
Deno.test({
  name: "sandbox: a symlinked config.toml is written through (trust, untrust, project trust); the link stays",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    await using home = await makeHome();
    await using proj = await makeProject();
    const dots = await Deno.realPath(await Deno.makeTempDir({ prefix: "mind-dotfiles-" }));
    try {
      const target = join(dots, "mind.toml");
      await Deno.writeTextFile(target, '# kept in my dotfiles\n[tui]\ntheme = "dark"\n');
      await Deno.symlink(target, join(home.path, "config.toml"));
      await writeHooksJson(home.path, { Stop: [group([cmd("echo hi")])] });

      // The plan grants the target, its lock and this process's temp file, and only to commands that write state.
      const plan = await buildPlan({
        command: "trust",
        needs: COMMANDS.get("trust")!.sandbox,
        args: parseCommandLine("trust", ["--home", home.path]),
        env: {},
        processCwd: "/",
      });
      assertEquals(plan.write, [home.path, target, `${target}.lock`, join(dots, `.mind.toml.${Deno.pid}.tmp`)]);
      const list = await buildPlan({
        command: "list",
        needs: COMMANDS.get("list")!.sandbox,
        args: parseCommandLine("list", ["--home", home.path]),
        env: {},
        processCwd: "/",
      });
      assertEquals(list.write, [home.path]);

      const trust = await runCli(["trust", "--all", "--home", home.path]);
      assertEquals(trust.code, 0, trust.stderr);
      assert((await Deno.lstat(join(home.path, "config.toml"))).isSymlink, "the link stays a link");
      const trusted = await Deno.readTextFile(target);
      assertStringIncludes(trusted, "# kept in my dotfiles");
      assertMatch(trusted, /trusted_hash = "sha256:[0-9a-f]{64}"/);
      // The key tail trust --all prints for the hook (its second line: `  hooks.json:Stop:0:0  echo hi`).
      const key = trust.stdout.trimEnd().split("\n").at(-1)!.trim().split(" ")[0];
      assertEquals(key, "hooks.json:Stop:0:0");

      // A comment the user put into the state table survives untrust (SPEC §3.3).
      await Deno.writeTextFile(target, trusted.replace(/(\[hooks\.state\.[^\n]*\]\n)/, "$1# reviewed by me\n"));
      const untrust = await runCli(["untrust", key, "--home", home.path]);
      assertEquals(untrust.code, 0, untrust.stderr);
      const after = await Deno.readTextFile(target);
      assert(!after.includes("trusted_hash"), after);
      assertStringIncludes(after, "# reviewed by me");

      const p = await runCli(["project", "trust", proj.path, "--home", home.path]);
      assertEquals(p.code, 0, p.stderr);
      assertStringIncludes(await Deno.readTextFile(target), `[projects.${JSON.stringify(proj.path)}]`);
      assert((await Deno.lstat(join(home.path, "config.toml"))).isSymlink);
      // Beside the target: the file and its lock, no temp file left behind.
      const names = [];
      for await (const e of Deno.readDir(dots)) names.push(e.name);
      assertEquals(names.sort(), ["mind.toml", "mind.toml.lock"]);
    } finally {
      await Deno.remove(dots, { recursive: true });
    }
  },
});

Deno.test({
  name: "sandbox: a dangling config.toml symlink (its file not there yet) is written through by project trust " +
    "and trust; the link stays",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    await using home = await makeHome();
    await using proj = await makeProject();
    const dots = await Deno.realPath(await Deno.makeTempDir({ prefix: "mind-dotfiles-" }));
    try {
      // A chain: ~/.mind/config.toml -> <dots>/link (relative) -> <dots>/mind.toml (missing).
      await Deno.symlink("mind.toml", join(dots, "link"));
      await Deno.symlink(join(dots, "link"), join(home.path, "config.toml"));
      await writeHooksJson(proj.mindDir, { Stop: [group([cmd("echo hi")])] });
      const target = join(dots, "mind.toml");

      const p = await runCli(["project", "trust", proj.path, "--home", home.path]);
      assertEquals(p.code, 0, p.stderr);
      assert((await Deno.lstat(join(home.path, "config.toml"))).isSymlink, "the link stays a link");
      assertStringIncludes(await Deno.readTextFile(target), `[projects.${JSON.stringify(proj.path)}]`);
      assertEquals((await Deno.stat(target)).mode! & 0o777, 0o600);
      const trust = await runCli(["trust", "--all", "--home", home.path, "--cwd", proj.path]);
      assertEquals(trust.code, 0, trust.stderr);
      assertMatch(await Deno.readTextFile(target), /trusted_hash = "sha256:[0-9a-f]{64}"/);
      assert((await Deno.lstat(join(home.path, "config.toml"))).isSymlink);
      assert((await Deno.lstat(join(dots, "link"))).isSymlink);
    } finally {
      await Deno.remove(dots, { recursive: true });
    }
  },
});

Deno.test("fast path guard: discovery refuses plugins and --hooks-file on the fast path, parses a trusted project", async () => {
  await using home = await makeHome();
  await using proj = await makeProject();
  await writeHooksJson(proj.mindDir, { Stop: [group([cmd("echo hi")])] });
  const hooksFile = await writeHooksJson(join(home.path, "extra"), { Stop: [group([cmd("echo hi")])] });
  const base = { home: home.path, cwd: proj.path, requirements: "/nonexistent/r.toml" };
  const trusted = [`projects.${JSON.stringify(proj.path)}.trust_level="trusted"`];
  const refused = async (opts: Parameters<typeof loadCatalog>[0]) => {
    const catalog = await loadCatalog({ ...opts, strangerFiles: "refuse" });
    if (catalog.ok) return null;
    return isStrangerRefusal(catalog) ? catalog.error : `unexpected ${catalog.error}`;
  };
  // The user's own files, an untrusted project, a trusted project (its hooks run only in the Worker):
  // loaded on the fast path as usual.
  assertEquals(await refused(base), null);
  assertEquals(await refused({ ...base, overrides: trusted }), null);
  assertMatch((await refused({ ...base, overrides: ["plugins.p.enabled=true"] }))!, /\(plugins\)/);
  assertMatch((await refused({ ...base, hooksFiles: [hooksFile] }))!, /\(--hooks-file /);
  // Outside the fast path the same catalog loads the plugin's and the file's hooks.
  const catalog = await loadCatalog({ ...base, hooksFiles: [hooksFile] });
  assert(catalog.ok && catalog.value.handlers.some((h) => h.layer === "cli"));
});

/**
 * Writes a probe at `path`: the command line run through the sandbox launcher exactly as main.ts runs
 * it, with `body` (code over `parsed` and `io`, returning the exit code or the hand-over) as the command.
 */
async function writeLauncherProbe(path: string, body: string): Promise<void> {
  await Deno.writeTextFile(
    path,
    `
    import { runInSandbox } from ${JSON.stringify(join(REPO, "src/sandbox/launch.ts"))};
    import { dispatchCommand } from ${JSON.stringify(join(REPO, "src/cli/dispatch_command.ts"))};
    import { COMMANDS, parseCommandLine } from ${JSON.stringify(join(REPO, "src/cli/commands.ts"))};
    const [name, ...rest] = Deno.args;
    const parsed = parseCommandLine(name, rest);
    Deno.exitCode = await runInSandbox(name, COMMANDS.get(name).sandbox, parsed, async (io) => {
      ${body}
    }, ${JSON.stringify(pathToFileURL(join(REPO, "src/cli/main.ts")).href)});
  `,
  );
}

/** Runs a launcher probe with `args`, `input` as JSON on stdin; its exit code, stdout and stderr. */
async function runLauncherProbe(probe: string, args: string[], input: unknown) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-q", "-P", "--no-prompt", "--config", join(REPO, "deno.json"), probe, ...args],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    env: { SHELL: "/bin/sh", MIND_REQUIREMENTS: "/nonexistent/r.toml" },
  }).spawn();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(JSON.stringify(input)));
  await w.close();
  const out = await child.output();
  return { code: out.code, stdout: new TextDecoder().decode(out.stdout), stderr: new TextDecoder().decode(out.stderr) };
}

for (const protocol of ["mind", "claude"] as const) {
  Deno.test(`fast path guard (--protocol ${protocol}): a project trusted between the decision and discovery runs in the Worker (TOCTOU)`, async () => {
    await using home = await makeHome();
    await using proj = await makeProject();
    await writeHooksJson(proj.mindDir, { UserPromptSubmit: [group([cmd("echo from-the-project")])] });
    await trustProject(home.path, proj.path);
    const trustedConfig = await Deno.readTextFile(join(home.path, "config.toml"));
    // Untrusted at decision time: the launcher decides on the fast path.
    assertEquals((await runCli(["project", "untrust", proj.path, "--home", home.path])).code, 0);
    // The command itself re-trusts the project before discovery runs, as a concurrent
    // `project trust` could; the launcher's decision is then out of date.
    const probe = join(home.path, "probe.ts");
    await writeLauncherProbe(
      probe,
      `await Deno.writeTextFile(${JSON.stringify(join(home.path, "config.toml"))}, ${JSON.stringify(trustedConfig)});
      const code = await dispatchCommand(parsed, io);
      if (typeof code === "number") console.error("the fast path ran a stranger's hook");
      return code;`,
    );
    const args = ["dispatch", "--home", home.path, "--protocol", protocol];
    const input = protocol === "mind"
      ? event("UserPromptSubmit", { cwd: proj.path })
      : { hook_event_name: "UserPromptSubmit", session_id: "s-claude", cwd: proj.path, prompt: "hi" };
    const out = await runLauncherProbe(probe, args, input);
    const stderr = out.stderr;
    assertEquals(out.code, 0, stderr);
    assert(!stderr.includes("the fast path ran"), stderr);
    assert(!stderr.includes("internal error"), stderr);
    // The Worker (the command line's module, the same arguments) ran the dispatch with the project now trusted.
    const result = JSON.parse(out.stdout);
    if (protocol === "mind") assertEquals(result.additionalContext, ["from-the-project"]);
    else assertStringIncludes(JSON.stringify(result), "from-the-project");
  });
}

Deno.test("no absolute path of a development machine in the product (src/, main.ts, mod.ts)", async () => {
  const files = [join(REPO, "main.ts"), join(REPO, "mod.ts")];
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(dir)) {
      if (e.isDirectory) await walk(join(dir, e.name));
      else if (/\.(ts|js|json)$/.test(e.name)) files.push(join(dir, e.name));
    }
  };
  await walk(join(REPO, "src"));
  // Paths of this machine (the checkout, the home) and the usual development-machine roots.
  const home = Deno.env.get("HOME");
  const exact = [REPO, ...(home && home.length > 1 ? [home + "/"] : [])];
  const kinds = /(?<![\w.~$-])(\/work\/|\/root\/|\/home\/[^\s/"'`]+\/|\/Users\/[^\s/"'`]+\/|[A-Za-z]:\\\\Users\\\\)/;
  const found: string[] = [];
  for (const f of files) {
    const text = await Deno.readTextFile(f);
    text.split("\n").forEach((line, i) => {
      if (exact.some((p) => line.includes(p)) || kinds.test(line)) {
        found.push(`${f.slice(REPO.length + 1)}:${i + 1}: ${line.trim()}`);
      }
    });
  }
  assertEquals(found, []);
});

Deno.test("doctor prints exactly the grants the Worker holds (Deno.permissions.query inside a Worker of that plan)", async () => {
  await using home = await makeHome();
  await using proj = await makeProject();
  const res = await runCli(["doctor", "--home", home.path], { cwd: proj.path });
  assertEquals(res.stderr, "");
  /** kind → printed value, from the permission table of doctor's output. */
  const table = (text: string) =>
    Object.fromEntries(
      text.split("\n").map((l) => /^ {2}(read|write|run|net|env|sys|ffi|import) +(.*)$/.exec(l)).filter((m) => m)
        .map((m) => [m![1], m![2]]),
    );
  const printed = table(res.stdout);
  assertEquals(Object.keys(printed), ["read", "write", "run", "net", "env", "sys", "ffi", "import"]);

  // The same plan, from the same command line, environment and cwd as the child's (tests/helpers/cli.ts).
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(Deno.env.toObject())) if (!k.startsWith("MIND_")) env[k] = v;
  Object.assign(env, {
    SHELL: "/bin/sh",
    MIND_REQUIREMENTS: "/nonexistent/mind-hooks-tests/requirements.toml",
    HOME: "/nonexistent/mind-hooks-tests/home",
  });
  const plan = await buildPlan({
    command: "doctor",
    needs: COMMANDS.get("doctor")!.sandbox,
    args: parseCommandLine("doctor", ["--home", home.path]),
    env,
    processCwd: proj.path,
  });
  assertEquals(printed, table(permissionLines(plan).join("\n")), "doctor prints the plan's Worker permissions");

  // A Worker started with that plan's permissions (as launch.ts starts it) holds each printed grant
  // and nothing beside it.
  const list = (kind: string) => printed[kind] === "none" ? [] : printed[kind].split(", ");
  const granted: Deno.PermissionDescriptor[] = [
    ...list("read").map((path) => ({ name: "read" as const, path })),
    ...list("write").map((path) => ({ name: "write" as const, path })),
    ...list("run").map((command) => ({ name: "run" as const, command })),
    { name: "env" },
    { name: "sys", kind: "uid" },
  ];
  const outside = join(proj.path, "..", `not-granted-${crypto.randomUUID()}`);
  const refused: Deno.PermissionDescriptor[] = [
    { name: "read", path: "/etc/passwd" },
    { name: "read", path: outside },
    { name: "write", path: outside },
    { name: "write", path: proj.mindDir },
    { name: "run", command: "/usr/bin/env" },
    // The engine's own checkout: no build-machine path is granted (it once was).
    { name: "read", path: join(REPO, "main.ts") },
    { name: "net" },
    { name: "net", host: "192.0.2.1:80" },
    { name: "sys", kind: "hostname" },
    { name: "ffi" },
  ];
  assertEquals([printed.net, printed.ffi], ["none", "none"]);
  const probe = join(home.path, "query_worker.ts");
  await Deno.writeTextFile(
    probe,
    `self.onmessage = async (e) => {
      const out = [];
      for (const d of e.data) out.push((await Deno.permissions.query(d)).state);
      self.postMessage(out);
    };`,
  );
  // launch.ts's own options (their name marks a sandbox Worker; the probe does not run main.ts).
  const worker = new Worker(new URL(`file://${probe}`), { ...workerOptions(plan), name: "permission-probe" });
  try {
    const states = await new Promise<string[]>((resolve, reject) => {
      worker.onmessage = (e) => resolve(e.data);
      worker.onerror = (e) => reject(new Error(e.message));
      worker.postMessage([...granted, ...refused]);
    });
    const g = states.slice(0, granted.length);
    const r = states.slice(granted.length);
    assertEquals(g, granted.map(() => "granted"), JSON.stringify(granted));
    assert(r.every((s) => s !== "granted"), `granted beyond the printed set: ${JSON.stringify(refused)} → ${r}`);
  } finally {
    worker.terminate();
  }
});

Deno.test("sandbox: plans are made from each command's declared needs, never from its name (no command name in src/sandbox/)", async () => {
  const found: string[] = [];
  for await (const e of Deno.readDir(join(REPO, "src/sandbox"))) {
    if (!e.name.endsWith(".ts")) continue;
    const text = await Deno.readTextFile(join(REPO, "src/sandbox", e.name));
    // A name compared with, looked up in or listed in a set (`"logs"` as a folder's name is no command).
    for (const name of COMMANDS.keys()) {
      const quoted = JSON.stringify(name).replace(/[-_]/g, "\\$&");
      const decided = new RegExp(`(?:[=!]==\\s*|\\.has\\(|new Set\\(\\[[^\\]]*)${quoted}`);
      if (decided.test(text)) found.push(`${e.name}: ${JSON.stringify(name)}`);
    }
  }
  assertEquals(found, []);
});

Deno.test("fast path: a trusted project's event that matches nothing is answered without the Worker", async () => {
  await using home = await makeHome();
  await using proj = await makeProject();
  await writeHooksJson(home.path, { UserPromptSubmit: [group([cmd("echo from-the-user")])] });
  await writeHooksJson(proj.mindDir, { Stop: [group([cmd("true")])] });
  await trustProject(home.path, proj.path);
  // The launcher's own run says where it ran: "refuse" is the fast path; a run it hands over goes to the Worker.
  const probe = join(home.path, "probe.ts");
  await writeLauncherProbe(
    probe,
    `const code = await dispatchCommand(parsed, io);
    console.error(typeof code === "number" ? "answered on the fast path" : "handed to the Worker");
    return code;`,
  );
  const dispatch = async (name: "SessionEnd" | "UserPromptSubmit" | "Stop") => {
    const out = await runLauncherProbe(probe, ["dispatch", "--home", home.path], event(name, { cwd: proj.path }));
    const stderr = out.stderr.trim();
    assertEquals(out.code, 0, stderr);
    return { stderr, result: JSON.parse(out.stdout) };
  };
  // Nothing matches, or only the user's own hook: the launcher answers.
  const none = await dispatch("SessionEnd");
  assertEquals([none.stderr, none.result.runs], ["answered on the fast path", []]);
  const user = await dispatch("UserPromptSubmit");
  assertEquals([user.stderr, user.result.additionalContext], ["answered on the fast path", ["from-the-user"]]);
  // The project's hook matches: nothing ran on the fast path; the Worker ran it, once.
  const stop = await dispatch("Stop");
  assertEquals(stop.stderr, "handed to the Worker");
  assertEquals(stop.result.runs.map((r: { layer: string; status: string }) => [r.layer, r.status]), [[
    "project",
    "completed",
  ]]);
});
