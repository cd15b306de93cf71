/**
 * The warm daemon (SPEC §13 r4) and its fallbacks, through the real CLI: no daemon (in-process, one
 * started for the next event), a stale socket, a non-socket or another user's socket (never used, one
 * warning), another version or build (it exits), `MIND_HOOKS_DAEMON=off` and `[hooks] daemon = false`
 * (none started), a client killed mid-event (its hooks die), the client's environment reaching the
 * hook, and a same-size configuration edit seen by the next event. A trusted project's hooks (a
 * stranger's) run in the daemon's warm sandbox Worker, with each client's environment, under the
 * plan's narrowed permissions, and die with their client. `dispatch --explain` says who answered. Every daemon a test starts is stopped by it (and exits anyway when its home is removed).
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "./helpers/assert.ts";
import {
  cmd,
  event,
  group,
  type Json,
  makeHome,
  makeProject,
  PYTHON,
  runCli,
  spawnCli,
  trustAll,
  trustProject,
  warningCodes,
  writeHooksJson,
} from "./helpers/cli.ts";
import { LineReader, type Reply, send, socketPath } from "../src/daemon/client.ts";

/** The daemon is not switched off for these runs (tests/helpers/cli.ts switches it off for all others). */
const ON = { MIND_HOOKS_DAEMON: undefined };

/** A hook that says the value of `$MIND_TEST_VAR` in its system message. */
const SAY_VAR = `printf '{"systemMessage":"var=%s"}' "$MIND_TEST_VAR"`;

async function homeWith(hooks: Json[], config?: string) {
  const home = await makeHome();
  await writeHooksJson(home.path, { PreToolUse: [group(hooks, "Bash")] });
  if (config !== undefined) await Deno.writeTextFile(join(home.path, "config.toml"), config);
  await trustAll(home.path);
  return home;
}

function bash(): Json {
  return event("PreToolUse", { tool_name: "Bash", tool_input: { command: "ls" } });
}

/** `dispatch --explain` with `env`: the result, and who answered (from the explanation's line). */
async function explained(home: string, env: Record<string, string | undefined> = ON) {
  const r = await runCli(["dispatch", "--home", home, "--explain"], { stdin: JSON.stringify(bash()), env });
  assertEquals(r.code, 0, r.stderr);
  const daemon = r.stderr.includes("answered by the daemon");
  assert(daemon || r.stderr.includes("answered in-process"), r.stderr);
  // deno-lint-ignore no-explicit-any
  return { result: r.json<any>(), daemon, stderr: r.stderr };
}

/** Waits (bounded) until `check` holds. */
async function until(check: () => boolean | Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

function isSocket(path: string): boolean {
  try {
    return Deno.lstatSync(path).isSocket === true;
  } catch {
    return false;
  }
}

async function stop(home: string): Promise<void> {
  await runCli(["daemon", "stop", "--home", home], { env: ON });
}

Deno.test("daemon: none runs → in-process, one starts for the next event, which it answers with the client's env", async () => {
  await using home = await homeWith([cmd(SAY_VAR)]);
  const { path } = socketPath(home.path);
  try {
    const first = await explained(home.path, { ...ON, MIND_TEST_VAR: "one" });
    assertEquals([first.daemon, first.result.systemMessages], [false, ["var=one"]]);
    await until(() => isSocket(path), "the daemon's socket");
    // The folder is this user's alone, the socket too.
    assertEquals([Deno.statSync(join(home.path, "run")).mode! & 0o777, Deno.lstatSync(path).mode! & 0o777], [
      0o700,
      0o600,
    ]);
    await until(
      async () => (await runCli(["daemon", "status", "--home", home.path], { env: ON })).code === 0,
      "status",
    );
    const second = await explained(home.path, { ...ON, MIND_TEST_VAR: "two" });
    assertEquals([second.daemon, second.result.systemMessages], [true, ["var=two"]]);
    assertStringIncludes(second.stderr, "stages: parse ");
    const status = await runCli(["daemon", "status", "--home", home.path, "--json"], { env: ON });
    assertEquals([status.code, status.json().running, status.json().events], [0, true, 1]);
  } finally {
    await stop(home.path);
  }
  await until(() => !isSocket(path), "the socket removed by daemon stop");
  assertEquals((await runCli(["daemon", "status", "--home", home.path], { env: ON })).code, 1);
});

Deno.test("daemon: a stale socket is replaced; MIND_HOOKS_DAEMON=off and [hooks] daemon = false start none", async () => {
  await using home = await homeWith([cmd(SAY_VAR)]);
  const { dir, path } = socketPath(home.path);
  await Deno.mkdir(dir, { mode: 0o700 });
  // A socket nothing listens on (a daemon that died): bound by a process that ends without removing it.
  const bind = `import socket; socket.socket(socket.AF_UNIX).bind(${JSON.stringify(path)})`;
  assert((await new Deno.Command(PYTHON, { args: ["-c", bind] }).output()).success, "python3 binds a socket");
  assert(isSocket(path), "a stale socket file is left");
  try {
    const first = await explained(home.path);
    assertEquals([first.daemon, first.result.systemMessages, first.result.warnings], [false, ["var="], []]);
    await until(
      async () => (await runCli(["daemon", "status", "--home", home.path], { env: ON })).code === 0,
      "a daemon",
    );
    assertEquals((await explained(home.path)).daemon, true);
  } finally {
    await stop(home.path);
  }
  await until(() => !isSocket(path), "the socket removed");
  // Switched off: by the environment, by the user's config.toml.
  const off = await explained(home.path, { MIND_HOOKS_DAEMON: "off" });
  assertEquals(off.daemon, false);
  await Deno.writeTextFile(join(home.path, "config.toml"), "[hooks]\ndaemon = false\n", { append: true });
  await trustAll(home.path);
  const configured = await explained(home.path);
  assertEquals([configured.daemon, configured.result.systemMessages], [false, ["var="]]);
  await new Promise((r) => setTimeout(r, 1500));
  assertEquals([isSocket(path), (await runCli(["daemon", "status", "--home", home.path], { env: ON })).code], [
    false,
    1,
  ]);
});

Deno.test("daemon: a non-socket, or another user's socket, at the path is never used: one warning, in-process", async () => {
  await using home = await homeWith([cmd(SAY_VAR)]);
  const { dir, path } = socketPath(home.path);
  await Deno.mkdir(dir, { mode: 0o700 });
  await Deno.writeTextFile(path, "not a socket");
  const r = await explained(home.path);
  assertEquals([r.daemon, r.result.systemMessages, warningCodes(r.result)], [false, ["var="], ["W_DAEMON_SOCKET"]]);
  await new Promise((r) => setTimeout(r, 1000));
  assertEquals(Deno.readTextFileSync(path), "not a socket");
  // Another user's socket: only root can make one here.
  if (Deno.uid() !== 0) return console.log("daemon_test: another user's socket is not tested (not root)");
  Deno.removeSync(path);
  const other = Deno.listen({ transport: "unix", path });
  try {
    Deno.chownSync(path, 65534, 65534);
    const o = await explained(home.path);
    assertEquals([o.daemon, o.result.systemMessages, warningCodes(o.result)], [false, ["var="], ["W_DAEMON_SOCKET"]]);
    assertStringIncludes(JSON.stringify(o.result.warnings), "another user");
  } finally {
    other.close();
  }
});

Deno.test("daemon: a client of another version or build is refused; that daemon exits and the client runs in-process", async () => {
  await using home = await homeWith([cmd(SAY_VAR)]);
  const start = await runCli(["daemon", "start", "--home", home.path, "--json"], { env: ON });
  assertEquals(start.code, 0, start.stderr);
  const { path } = socketPath(home.path);
  const conn = await Deno.connect({ transport: "unix", path });
  try {
    await send(conn, {
      type: "dispatch",
      version: "0.0.0-other",
      build: "another build",
      args: ["--home", home.path],
      cwd: "/",
      env: {},
      stdin: JSON.stringify(bash()),
    });
    const reply = await new LineReader<Reply>(conn).next();
    assertEquals(reply, { type: "mismatch" });
  } finally {
    conn.close();
  }
  await until(() => !isSocket(path), "the refused daemon's exit");
  // The next client finds none: in-process, and it starts the new one.
  assertEquals((await explained(home.path)).daemon, false);
  await until(
    async () => (await runCli(["daemon", "status", "--home", home.path], { env: ON })).code === 0,
    "the new one",
  );
  await stop(home.path);
});

Deno.test("daemon: a client killed mid-event has its hook's process group killed (at once, not at its timeout)", async () => {
  await using home = await makeHome();
  const pidFile = join(home.path, "hook.pid");
  const hook = `echo $$ > ${pidFile}; sleep 30; echo '{}'`;
  await writeHooksJson(home.path, { PreToolUse: [group([cmd(hook)], "Bash")] });
  await trustAll(home.path);
  assertEquals((await runCli(["daemon", "start", "--home", home.path], { env: ON })).code, 0);
  try {
    await killClientMidEvent(home.path, bash(), pidFile);
  } finally {
    await stop(home.path);
  }
});

/**
 * Sends `ev` through a `dispatch` client, kills the client once the hook wrote its pid to `pidFile`, and
 * waits for that hook to end: the hook sleeps 30 s, so its end well before proves it was killed when its
 * client went away.
 */
async function killClientMidEvent(home: string, ev: Json, pidFile: string): Promise<void> {
  const client = await spawnCli(["dispatch", "--home", home], { env: ON });
  const w = client.stdin.getWriter();
  await w.write(new TextEncoder().encode(JSON.stringify(ev)));
  await w.close();
  await until(() => {
    try {
      return Deno.readTextFileSync(pidFile).trim() !== "";
    } catch {
      return false;
    }
  }, "the hook's start");
  const pid = Number(Deno.readTextFileSync(pidFile).trim());
  client.kill("SIGKILL");
  await client.output();
  await until(() => !alive(pid), "the hook's end", 10_000);
}

function alive(pid: number): boolean {
  try {
    Deno.kill(pid, "SIGCONT");
    return true;
  } catch {
    return false;
  }
}

Deno.test("daemon: a same-size edit of a trusted hook, right after an event, is seen by the next event", async () => {
  await using home = await homeWith([cmd(`printf '{"systemMessage":"aaa"}'`)]);
  assertEquals((await runCli(["daemon", "start", "--home", home.path], { env: ON })).code, 0);
  try {
    const before = await explained(home.path);
    assertEquals([before.daemon, before.result.systemMessages], [true, ["aaa"]]);
    const file = join(home.path, "hooks.json");
    const text = Deno.readTextFileSync(file);
    const { mtime } = Deno.statSync(file);
    Deno.writeTextFileSync(file, text.replace("aaa", "bbb"));
    // The same size and, as a fast edit leaves it, the same mtime: only the content tells.
    Deno.utimeSync(file, mtime!, mtime!);
    const after = await explained(home.path);
    assertEquals(after.daemon, true);
    assertEquals(after.result.runs.map((r: { status: string }) => r.status), ["skipped"]);
    assertStringIncludes(after.result.runs[0].reason, "modified");
  } finally {
    await stop(home.path);
  }
});

Deno.test("daemon: [hooks] daemon = false written while one runs: it answers that event, then exits", async () => {
  await using home = await homeWith([cmd(SAY_VAR)]);
  const { path } = socketPath(home.path);
  assertEquals((await runCli(["daemon", "start", "--home", home.path], { env: ON })).code, 0);
  try {
    await Deno.writeTextFile(join(home.path, "config.toml"), "[hooks]\ndaemon = false\n", { append: true });
    const answered = await explained(home.path);
    assertEquals([answered.daemon, answered.result.systemMessages], [true, ["var="]]);
    await until(() => !isSocket(path), "the daemon's exit");
    const next = await explained(home.path);
    assertEquals(next.daemon, false);
  } finally {
    await stop(home.path);
  }
});

/** A home whose trusted project (its `.mind/hooks.json`) holds `hooks` on PreToolUse Bash, all trusted. */
async function projectWith(hooks: Json[]) {
  const home = await makeHome();
  const project = await makeProject();
  await writeHooksJson(project.mindDir, { PreToolUse: [group(hooks, "Bash")] });
  await trustProject(home.path, project.path);
  return {
    home,
    project,
    async [Symbol.asyncDispose]() {
      await project.cleanup();
      await home.cleanup();
    },
  };
}

/** `dispatch --explain` of a Bash PreToolUse in `cwd`, with `env`. */
async function explainedIn(home: string, cwd: string, env: Record<string, string | undefined>) {
  const ev = event("PreToolUse", { tool_name: "Bash", tool_input: { command: "ls" }, cwd });
  const r = await runCli(["dispatch", "--home", home, "--explain"], { stdin: JSON.stringify(ev), env });
  assertEquals(r.code, 0, r.stderr);
  // deno-lint-ignore no-explicit-any
  return { result: r.json<any>(), daemon: r.stderr.includes("answered by the daemon") };
}

Deno.test("daemon: a trusted project's hook runs in its warm sandbox Worker, with each client's environment", async () => {
  await using p = await projectWith([cmd(SAY_VAR)]);
  assertEquals((await runCli(["daemon", "start", "--home", p.home.path], { env: ON })).code, 0);
  try {
    for (const value of ["one", "two"]) {
      const got = await explainedIn(p.home.path, p.project.path, { ...ON, MIND_TEST_VAR: value });
      assertEquals([got.daemon, got.result.systemMessages], [true, [`var=${value}`]]);
      assertEquals(got.result.runs.map((r: { layer: string }) => r.layer), ["project"]);
    }
    // The same answer in-process (the launcher's own sandbox Worker).
    const off = await explainedIn(p.home.path, p.project.path, { MIND_HOOKS_DAEMON: "off", MIND_TEST_VAR: "two" });
    assertEquals([off.daemon, off.result.systemMessages], [false, ["var=two"]]);
    // A same-size edit of the project's hook, its mtime kept: the Worker's warm configuration sees it.
    const file = join(p.project.mindDir, "hooks.json");
    const { mtime } = Deno.statSync(file);
    Deno.writeTextFileSync(file, Deno.readTextFileSync(file).replace("var=", "vaR="));
    Deno.utimeSync(file, mtime!, mtime!);
    const edited = await explainedIn(p.home.path, p.project.path, ON);
    assertEquals(edited.daemon, true);
    assertEquals(edited.result.runs.map((r: { status: string }) => r.status), ["skipped"]);
    assertStringIncludes(edited.result.runs[0].reason, "modified");
    const status = await runCli(["daemon", "status", "--home", p.home.path, "--json"], { env: ON });
    assertEquals(status.json().events, 3);
  } finally {
    await stop(p.home.path);
  }
});

Deno.test("daemon: a client killed mid-event has its project hook (in the warm Worker) killed at once", async () => {
  const pidDir = await makeHome();
  const pidFile = join(pidDir.path, "hook.pid");
  await using p = await projectWith([cmd(`echo $$ > ${pidFile}; sleep 30; echo '{}'`)]);
  try {
    assertEquals((await runCli(["daemon", "start", "--home", p.home.path], { env: ON })).code, 0);
    try {
      const ev = event("PreToolUse", { tool_name: "Bash", tool_input: { command: "ls" }, cwd: p.project.path });
      await killClientMidEvent(p.home.path, ev, pidFile);
    } finally {
      await stop(p.home.path);
    }
  } finally {
    await pidDir.cleanup();
  }
});
