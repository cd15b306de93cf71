/**
 * Tests of src/runner/shell.ts: the pure parts for both platforms on every OS, and the process-tree
 * kill and the shell quoting for real on the OS the tests run on.
 */
import { assertEquals, assertThrows } from "./helpers/assert.ts";
import {
  buildShellInvocation,
  DEFAULT_KILL_GRACE_MS,
  killPlan,
  killProcessTree,
  sessionInvocation,
  SETSID,
  type ShellInvocation,
} from "../src/runner/shell.ts";
import { ancestorDirs, currentPlatform, normalizeKeyPath } from "../src/util/paths.ts";

const IS_WINDOWS = Deno.build.os === "windows";
// Printed once so a Windows run says why these tests show as "ignored".
const POSIX_ONLY = "need /bin/sh, setsid and process groups (POSIX only)";
const WINDOWS_ONLY = "need cmd.exe and taskkill (Windows only)";
console.log(
  `shell_test: skipping tests that ${IS_WINDOWS ? POSIX_ONLY : WINDOWS_ONLY}`,
);

// ------------------------------------------------------------------------------------------
// buildShellInvocation

Deno.test("posix invocation: $SHELL -lc command, detached", () => {
  const inv = buildShellInvocation({
    platform: "posix",
    env: { SHELL: "/bin/zsh" },
    command: "echo hi",
    commandWindows: "echo win",
  });
  assertEquals(inv, {
    program: "/bin/zsh",
    args: ["-lc", "echo hi"],
    detached: true,
    windowsRawArguments: false,
  });
});

Deno.test("session invocation: through setsid where it and the shell are there, else Deno's own detached start", () => {
  const login = buildShellInvocation({ platform: "posix", env: { SHELL: "/bin/zsh" }, command: "echo hi" });
  const windows = buildShellInvocation({ platform: "windows", env: {}, command: "echo hi" });
  const relative = { ...login, program: "zsh" };
  const all = () => true;
  assertEquals(
    [
      sessionInvocation(login, all),
      // No setsid (macOS), or a shell that is not there (so that its absence stays a spawn error).
      sessionInvocation(login, (p) => p !== SETSID),
      sessionInvocation(login, (p) => p !== "/bin/zsh"),
      // A shell named without a path, and cmd.exe (no session to lead), start as they are.
      sessionInvocation(relative, all),
      sessionInvocation(windows, all),
    ],
    [
      { program: SETSID, args: ["/bin/zsh", "-lc", "echo hi"], detached: false, windowsRawArguments: false },
      login,
      login,
      relative,
      windows,
    ],
  );
});

Deno.test("posix invocation: /bin/sh when SHELL is unset or empty; name is case-sensitive", () => {
  for (
    const env of [{}, { SHELL: "" }, { SHELL: undefined }, {
      shell: "/bin/zsh",
    }]
  ) {
    assertEquals(
      buildShellInvocation({ platform: "posix", env, command: "true" }).program,
      "/bin/sh",
      JSON.stringify(env),
    );
  }
});

Deno.test('windows invocation: %COMSPEC% /S /C "command", raw arguments', () => {
  const inv = buildShellInvocation({
    platform: "windows",
    env: { ComSpec: "C:\\Windows\\system32\\cmd.exe" },
    command: "echo posix",
    commandWindows: 'py "scripts\\check tool.py" & echo %USERNAME%',
  });
  assertEquals(inv, {
    program: "C:\\Windows\\system32\\cmd.exe",
    args: ["/S", "/C", '"py "scripts\\check tool.py" & echo %USERNAME%"'],
    detached: false,
    windowsRawArguments: true,
  });
});

Deno.test("windows invocation: cmd.exe fallback, command when commandWindows is absent or empty", () => {
  for (const commandWindows of [undefined, ""]) {
    const inv = buildShellInvocation({
      platform: "windows",
      env: { COMSPEC: "" },
      command: "echo one",
      commandWindows,
    });
    assertEquals(inv.program, "cmd.exe");
    assertEquals(inv.args, ["/S", "/C", '"echo one"']);
  }
});

Deno.test("windows invocation: COMSPEC is looked up case-insensitively", () => {
  for (const key of ["COMSPEC", "ComSpec", "comspec"]) {
    const inv = buildShellInvocation({
      platform: "windows",
      env: { [key]: "D:\\cmd.exe" },
      command: "x",
    });
    assertEquals(inv.program, "D:\\cmd.exe", key);
  }
});

// ------------------------------------------------------------------------------------------
// killPlan

Deno.test("kill plan posix: SIGTERM to the group, SIGKILL after the grace period", () => {
  assertEquals(killPlan("posix", 4242), {
    steps: [
      { signal: "SIGTERM", target: "group", afterMs: 0 },
      { signal: "SIGKILL", target: "group", afterMs: DEFAULT_KILL_GRACE_MS },
    ],
  });
  assertEquals(DEFAULT_KILL_GRACE_MS, 1000);
  assertEquals(killPlan("posix", 4242, { graceMs: 250 }).steps[1], {
    signal: "SIGKILL",
    target: "group",
    afterMs: 250,
  });
});

Deno.test("kill plan windows: taskkill /T /F, from System32 when SystemRoot is known", () => {
  assertEquals(killPlan("windows", 4242), {
    steps: [{ run: ["taskkill.exe", "/T", "/F", "/PID", "4242"], afterMs: 0 }],
  });
  assertEquals(killPlan("windows", 7, { systemRoot: "C:\\Windows\\" }).steps, [
    {
      run: ["C:\\Windows\\System32\\taskkill.exe", "/T", "/F", "/PID", "7"],
      afterMs: 0,
    },
  ]);
});

Deno.test("kill plan refuses pids whose group kill would hit everything", () => {
  for (const pid of [0, 1, -5, 1.5, NaN, Infinity]) {
    assertThrows(() => killPlan("posix", pid), RangeError);
    assertThrows(() => killPlan("windows", pid), RangeError);
  }
});

// ------------------------------------------------------------------------------------------
// normalizeKeyPath / ancestorDirs

Deno.test("normalizeKeyPath posix", () => {
  const cases: Array<[string, string]> = [
    ["/home/a/repo", "/home/a/repo"],
    ["/home/a/repo/", "/home/a/repo"],
    ["//home///a/./repo/.", "/home/a/repo"],
    ["/", "/"],
    ["///", "/"],
    ["/Home/A", "/Home/A"],
    ["/a\\b", "/a\\b"], // a backslash is a file-name character on POSIX
  ];
  for (const [input, want] of cases) {
    assertEquals(normalizeKeyPath(input, "posix"), want, input);
  }
});

Deno.test("normalizeKeyPath windows", () => {
  const cases: Array<[string, string]> = [
    ["C:\\Users\\A\\repo", "C:\\Users\\A\\repo"],
    ["c:\\Users\\A\\repo\\", "C:\\Users\\A\\repo"],
    ["c:/Users/A/repo", "C:\\Users\\A\\repo"],
    ["C:\\Users\\\\A\\.\\repo", "C:\\Users\\A\\repo"],
    ["C:\\", "C:\\"],
    ["c:", "C:\\"],
    ["C:\\Users\\MixedCase", "C:\\Users\\MixedCase"], // case kept beyond the drive letter
    ["\\\\?\\C:\\Users\\A", "C:\\Users\\A"],
    ["\\\\?\\d:\\x", "D:\\x"],
    ["\\\\.\\C:\\x", "C:\\x"],
    ["\\\\?\\UNC\\srv\\share\\dir", "\\\\srv\\share\\dir"],
    ["\\\\srv\\share\\dir\\", "\\\\srv\\share\\dir"],
    ["//srv/share/dir", "\\\\srv\\share\\dir"],
    ["\\\\srv\\share", "\\\\srv\\share\\"],
    ["\\\\srv\\share\\", "\\\\srv\\share\\"],
    ["\\\\?\\Volume{1234}\\dir", "\\\\?\\Volume{1234}\\dir"],
  ];
  for (const [input, want] of cases) {
    assertEquals(normalizeKeyPath(input, "windows"), want, input);
  }
});

Deno.test("ancestorDirs posix", () => {
  assertEquals(ancestorDirs("/home/a/repo/src", "posix"), [
    "/home/a/repo/src",
    "/home/a/repo",
    "/home/a",
    "/home",
    "/",
  ]);
  assertEquals(ancestorDirs("/home/a/", "posix"), ["/home/a", "/home", "/"]);
  assertEquals(ancestorDirs("/", "posix"), ["/"]);
  assertThrows(() => ancestorDirs("home/a", "posix"), TypeError);
  assertThrows(() => ancestorDirs("", "posix"), TypeError);
});

Deno.test("ancestorDirs windows: drive roots", () => {
  assertEquals(ancestorDirs("c:\\Users\\A\\repo", "windows"), [
    "C:\\Users\\A\\repo",
    "C:\\Users\\A",
    "C:\\Users",
    "C:\\",
  ]);
  assertEquals(ancestorDirs("C:\\", "windows"), ["C:\\"]);
  assertEquals(ancestorDirs("\\\\?\\C:\\x", "windows"), ["C:\\x", "C:\\"]);
});

Deno.test("ancestorDirs windows: UNC shares are roots", () => {
  assertEquals(ancestorDirs("\\\\srv\\share\\team\\repo", "windows"), [
    "\\\\srv\\share\\team\\repo",
    "\\\\srv\\share\\team",
    "\\\\srv\\share\\",
  ]);
  assertEquals(ancestorDirs("\\\\?\\UNC\\srv\\share\\x", "windows"), [
    "\\\\srv\\share\\x",
    "\\\\srv\\share\\",
  ]);
  assertEquals(ancestorDirs("\\\\srv\\share", "windows"), ["\\\\srv\\share\\"]);
  assertEquals(ancestorDirs("\\\\?\\Volume{1234}\\a", "windows"), [
    "\\\\?\\Volume{1234}\\a",
    "\\\\?\\Volume{1234}\\",
  ]);
});

Deno.test("ancestorDirs windows: paths that are not fully qualified are refused", () => {
  for (const p of ["repo", "C:repo", "\\Users\\A", "\\\\srv", ""]) {
    assertThrows(() => ancestorDirs(p, "windows"), TypeError);
  }
});

Deno.test("currentPlatform matches Deno.build.os", () => {
  assertEquals(currentPlatform(), IS_WINDOWS ? "windows" : "posix");
});

// ------------------------------------------------------------------------------------------
// Real processes

function spawn(inv: ShellInvocation, env?: Record<string, string>) {
  return new Deno.Command(inv.program, {
    args: inv.args,
    detached: inv.detached,
    windowsRawArguments: inv.windowsRawArguments,
    env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

/** Resolves with the text, or rejects if the stream is still open after `ms`. */
async function readAllWithin(
  stream: ReadableStream<Uint8Array>,
  ms: number,
): Promise<string> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`stream still open after ${ms} ms`)),
      ms,
    );
  });
  try {
    return await Promise.race([new Response(stream).text(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const isAlive = (pid: number): boolean => {
  try {
    // A zombie (dead, not yet reaped by an init that reaps slowly) is not alive.
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return !/^\S+ \(.*\) Z /.test(stat);
  } catch {
    return false;
  }
};
const HAS_PROC = !IS_WINDOWS && (() => {
  try {
    Deno.statSync("/proc/self/stat");
    return true;
  } catch {
    return false;
  }
})();

Deno.test({
  name: "posix: the shell receives the command intact, as a login shell",
  ignore: IS_WINDOWS,
  async fn() {
    const command = `printf '%s|' "a  b" 'it'"'"'s' "$MIND_X"; case $- in *i*) echo interactive;; esac`;
    const inv = buildShellInvocation({
      platform: "posix",
      env: { SHELL: "/bin/sh" },
      command,
    });
    const child = spawn(inv, { MIND_X: "$HOME & ;" });
    const out = await readAllWithin(child.stdout, 10_000);
    await child.stderr.cancel();
    await child.status;
    assertEquals(out, "a  b|it's|$HOME & ;|");
  },
});

Deno.test({
  name: "posix: detached child leads its own process group",
  ignore: !HAS_PROC,
  async fn() {
    const inv = buildShellInvocation({
      platform: "posix",
      env: {},
      command: "sleep 30",
    });
    const child = spawn(inv);
    try {
      const fields = Deno.readTextFileSync(`/proc/${child.pid}/stat`).replace(
        /^.*\) /,
        "",
      ).split(" ");
      // state ppid pgrp session
      assertEquals([Number(fields[2]), Number(fields[3])], [
        child.pid,
        child.pid,
      ]);
    } finally {
      await killProcessTree(child.pid, "posix", 100);
      await child.stdout.cancel();
      await child.stderr.cancel();
      await child.status;
    }
  },
});

/** Whether `path` is a file here (what the runner asks before it starts a hook through setsid). */
function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

Deno.test({
  name: "posix: started through setsid, the hook's shell leads its own session and process group, under its own pid",
  ignore: !HAS_PROC || !isFile(SETSID),
  async fn() {
    const inv = sessionInvocation(
      buildShellInvocation({ platform: "posix", env: { SHELL: "/bin/sh" }, command: "echo ready; sleep 30" }),
      isFile,
    );
    const child = spawn(inv);
    try {
      const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
      await reader.read(); // the shell runs: setsid() was called before it was started
      reader.releaseLock();
      const fields = Deno.readTextFileSync(`/proc/${child.pid}/stat`).replace(/^.*\) /, "").split(" ");
      // state ppid pgrp session; the program is the shell (setsid execs it in place)
      const comm = Deno.readTextFileSync(`/proc/${child.pid}/comm`).trim();
      assertEquals([inv.program, comm, Number(fields[2]), Number(fields[3])], [SETSID, "sh", child.pid, child.pid]);
    } finally {
      await killProcessTree(child.pid, "posix", 100);
      await child.stdout.cancel().catch(() => {});
      await child.stderr.cancel();
      await child.status;
    }
  },
});

Deno.test({
  name: "posix: a kill sent the moment a hook started through setsid began (before setsid() ran) still ends it",
  ignore: IS_WINDOWS || !isFile(SETSID),
  async fn() {
    const inv = sessionInvocation(
      // Short: a hook that escaped the kill ends by itself (and the test says so, "exit 0").
      buildShellInvocation({ platform: "posix", env: { SHELL: "/bin/sh" }, command: "sleep 2" }),
      isFile,
    );
    const outcomes: string[] = [];
    for (let i = 0; i < 20; i++) {
      const child = spawn(inv);
      await killProcessTree(child.pid, "posix", 1000);
      const status = await child.status;
      await child.stdout.cancel();
      await child.stderr.cancel();
      outcomes.push(status.signal ?? `exit ${status.code}`);
    }
    assertEquals(outcomes, Array(20).fill("SIGTERM"));
  },
});

Deno.test({
  name: "posix: killProcessTree ends a grandchild that holds stdout open",
  ignore: IS_WINDOWS,
  async fn() {
    const inv = buildShellInvocation({
      platform: "posix",
      env: { SHELL: "/bin/sh" },
      command: "sleep 30 & echo $!; wait",
    });
    const child = spawn(inv);
    const reader = child.stdout.pipeThrough(new TextDecoderStream())
      .getReader();
    const first = await reader.read(); // the grandchild's pid, once it exists
    const grandchild = Number(String(first.value).trim());
    await killProcessTree(child.pid, "posix", 1000);
    // SIGTERM was enough (the shell does not trap it). How soon killProcessTree returns is not
    // asserted: it returns early only once the group is reaped, and an init that reaps orphans
    // slowly (as in some containers) keeps zombie members in the group until the grace ends.
    const status = await child.status;
    assertEquals(status.signal, "SIGTERM");
    // The pipe closes because every writer (the grandchild too) is gone.
    let rest = "";
    const deadline = Date.now() + 5000;
    for (;;) {
      if (Date.now() > deadline) throw new Error("stdout still open");
      const r = await reader.read();
      if (r.done) break;
      rest += r.value;
    }
    assertEquals(rest, "");
    if (HAS_PROC) assertEquals(isAlive(grandchild), false, "grandchild alive");
    await child.stderr.cancel();
  },
});

Deno.test({
  name: "posix: killProcessTree escalates to SIGKILL when SIGTERM is ignored",
  ignore: IS_WINDOWS,
  async fn() {
    // An ignored signal stays ignored across fork and exec, so the whole tree ignores SIGTERM.
    const inv = buildShellInvocation({
      platform: "posix",
      env: { SHELL: "/bin/sh" },
      command: "trap '' TERM; sleep 30 & echo ready; wait",
    });
    const child = spawn(inv);
    const reader = child.stdout.pipeThrough(new TextDecoderStream())
      .getReader();
    await reader.read();
    const t0 = Date.now();
    await killProcessTree(child.pid, "posix", 300);
    const took = Date.now() - t0;
    if (took < 250 || took > 3000) throw new Error(`kill took ${took} ms`);
    const status = await child.status;
    assertEquals(status.signal, "SIGKILL");
    await reader.cancel();
    await child.stderr.cancel();
  },
});

Deno.test({
  name: "posix: killProcessTree on a finished group is a no-op",
  ignore: IS_WINDOWS,
  async fn() {
    const child = spawn(
      buildShellInvocation({ platform: "posix", env: {}, command: "exit 0" }),
    );
    await child.stdout.cancel();
    await child.stderr.cancel();
    await child.status;
    await killProcessTree(child.pid, "posix", 50); // must not throw
  },
});

Deno.test({
  name: "windows: cmd.exe receives the command intact",
  ignore: !IS_WINDOWS,
  async fn() {
    const inv = buildShellInvocation({
      platform: "windows",
      env: Deno.env.toObject(),
      command: "unused",
      commandWindows: 'echo "a  b"&echo %MIND_X%',
    });
    const child = spawn(inv, { MIND_X: "v 1" });
    const out = await readAllWithin(child.stdout, 10_000);
    await child.stderr.cancel();
    await child.status;
    // The quotes reach echo as typed (no \" escaping), & separates commands, %VAR% expands.
    assertEquals(out.replace(/\r\n/g, "\n"), '"a  b"\nv 1\n');
  },
});

Deno.test({
  name: "windows: killProcessTree ends the shell and its child",
  ignore: !IS_WINDOWS,
  async fn() {
    const inv = buildShellInvocation({
      platform: "windows",
      env: Deno.env.toObject(),
      command: "unused",
      // ping writes to the same pipe, so the pipe closes only when the whole tree is gone.
      commandWindows: "echo ready& ping -n 30 127.0.0.1",
    });
    const child = spawn(inv);
    const reader = child.stdout.pipeThrough(new TextDecoderStream())
      .getReader();
    await reader.read();
    await killProcessTree(child.pid, "windows");
    const status = await child.status;
    assertEquals(status.success, false);
    const deadline = Date.now() + 5000;
    for (;;) {
      if (Date.now() > deadline) throw new Error("stdout still open");
      if ((await reader.read()).done) break;
    }
    await child.stderr.cancel();
  },
});
