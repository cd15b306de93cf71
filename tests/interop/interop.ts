/**
 * Interop tests with the real hosts: Claude Code (`@anthropic-ai/claude-code`) and Codex (`@openai/codex`)
 * from the npm registry, driven non-interactively against a mock model server on 127.0.0.1, with
 * `mind-hooks install <host>` registering the delegating entry and real mind hook scripts behind it.
 *
 * Each case asserts what the mock model received after the tool call (or at the end of the turn) and
 * whether the shell command really ran. Run with `deno task test:interop` (the file name keeps it out of the default `deno test tests/` run); the tests skip, with the reason
 * printed, only when the packages cannot be installed.
 * @module
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import {
  askingSetup,
  canIsolateNetwork,
  cli,
  ensurePackages,
  hostEnv,
  launcher,
  launcherOffPathSetup,
  makeRunDirs,
  PACKAGES,
  REPO,
  type RunDirs,
  runHost,
} from "./harness.ts";
import type { DriverReport } from "./driver.ts";
import { runHostTui, tmuxAvailable } from "./tui.ts";

type Host = "claude" | "codex";
const HOOKS = `${REPO}/fixtures/adapter/hooks`;
const TOOL_COMMAND = "echo hello-from-tool > ran.txt";
const FINAL = "ALL DONE";

const skipReasons = await ensurePackages(["claude", "codex"]);
const skipReason = skipReasons.claude ?? skipReasons.codex;
// Each test run starts from clean run directories (a failed run's are kept until the next run, for reading).
await Deno.remove(`${REPO}/.tmp/interop/runs`, { recursive: true }).catch(() => {});
if (skipReason) console.log(`interop tests skipped: ${skipReason}`);
else {
  console.log(
    `interop: ${PACKAGES.claude}, ${PACKAGES.codex}; network ${
      await canIsolateNetwork() ? "isolated (loopback-only namespace)" : "NOT isolated (unshare unavailable)"
    }`,
  );
  // Hooks start mind-hooks inside a namespace without network: make sure every module is cached first.
  await new Deno.Command(Deno.execPath(), { args: ["cache", "--config", `${REPO}/deno.json`, `${REPO}/main.ts`] })
    .output();
}

/** A mind hooks.json with one handler on `event`, running `script`. */
function mindHooks(event: string, script: string, matcher?: string): string {
  const group = { ...(matcher ? { matcher } : {}), hooks: [{ type: "command", command: `sh ${HOOKS}/${script}` }] };
  return JSON.stringify({ hooks: { [event]: [group] } }, null, 2);
}

/** Lays out a run: mind hooks (trusted unless told), the host's delegating entries via `mind-hooks install`. */
async function setup(host: Host, label: string, hooksJson: string, trusted = true): Promise<RunDirs> {
  const dirs = await makeRunDirs(host, label);
  await Deno.writeTextFile(`${dirs.mind}/hooks.json`, hooksJson);
  const env = { ...hostEnv(host, dirs), MIND_HOME: dirs.mind };
  if (trusted) {
    const t = await cli(["trust", "--all", "--home", dirs.mind], env);
    assertEquals(t.code, 0, t.stderr);
  }
  const inst = await cli(["install", host, "--user", "--command", launcher()], env);
  assertEquals(inst.code, 0, inst.stderr);
  return dirs;
}

async function ranFile(dirs: RunDirs): Promise<string | null> {
  try {
    return (await Deno.readTextFile(`${dirs.work}/ran.txt`)).trim();
  } catch {
    return null;
  }
}

/** Model requests that came after the first one (the first only carries the prompt). */
function laterRequests(r: DriverReport): string[] {
  const model = r.requests.filter((q) => q.path.endsWith("/messages") || q.path.endsWith("/responses"));
  return model.slice(1).map((q) => JSON.stringify(q.body));
}

function describe(r: DriverReport): string {
  return `exit ${r.code}, ${r.requests.length} requests\n--- stdout\n${r.stdout.slice(-3000)}\n--- stderr\n${
    r.stderr.slice(-3000)
  }`;
}

/**
 * What the host showed its user as hook system messages. Claude Code records each one in its session
 * transcript as a `hook_system_message` attachment (the same text its UI prints); Codex's non-interactive
 * `exec` prints them nowhere, so for Codex this is the text of its stdout and stderr.
 */
async function userMessages(host: Host, dirs: RunDirs, r: DriverReport): Promise<string> {
  if (host === "codex") return r.stdout + r.stderr;
  const found: string[] = [];
  for await (const e of Deno.readDir(`${dirs.hostDir}/projects`)) {
    if (!e.isDirectory) continue;
    for await (const f of Deno.readDir(`${dirs.hostDir}/projects/${e.name}`)) {
      if (!f.name.endsWith(".jsonl")) continue;
      for (const line of (await Deno.readTextFile(`${dirs.hostDir}/projects/${e.name}/${f.name}`)).split("\n")) {
        if (!line.includes("hook_system_message")) continue;
        const a = JSON.parse(line).attachment;
        if (a?.type === "hook_system_message") found.push(String(a.content));
      }
    }
  }
  return found.join("\n");
}

function run(host: Host, dirs: RunDirs): Promise<DriverReport> {
  // Codex runs a hooks.json entry only once it is trusted (through its /hooks screen, interactive); a
  // scripted run uses Codex's documented per-invocation bypass for the entry install just wrote.
  return runHost(host, dirs, {
    command: TOOL_COMMAND,
    finalText: FINAL,
    prompt: "Run the shell command, then stop.",
    extraArgs: host === "codex" ? ["--dangerously-bypass-hook-trust"] : [],
  });
}

/** karanb192's block-dangerous-commands (vendored unchanged), the guard the `ask` cases run in its ask mode. */
/** A command the guard asks about (`git reset --hard`), harmless here (no repository), then the marker. */
const ASKED_COMMAND = "git reset --hard 2>/dev/null; echo hello-from-tool > ran.txt";

for (const host of ["claude", "codex"] as const) {
  const opts = { ignore: skipReason !== null, sanitizeResources: false, sanitizeOps: false };

  Deno.test(
    {
      name: `${host}: a launcher on the terminal's PATH only still runs the mind guard (absolute path, SPEC §6 r4)`,
      ...opts,
    },
    async () => {
      const deny = { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `sh ${HOOKS}/deny.sh` }] }] };
      const dirs = await launcherOffPathSetup(host, "offpath", { gone: false, hooks: { hooks: deny } });
      const r = await run(host, dirs);
      assertEquals(await ranFile(dirs), null, `the denied command ran\n${describe(r)}`);
      assert(laterRequests(r).some((b) => b.includes("DENY-MARKER")), `the model never saw the reason\n${describe(r)}`);
    },
  );

  Deno.test(
    { name: `${host}: with the launcher gone, the registered command blocks the tool call (SPEC §6 r4)`, ...opts },
    async () => {
      const dirs = await launcherOffPathSetup(host, "gone", { gone: true });
      const r = await run(host, dirs);
      assertEquals(await ranFile(dirs), null, `the tool ran unguarded\n${describe(r)}`);
      const said = `mind-hooks not found at ${dirs.launcher}: run mind-hooks install ${host}`;
      if (host === "claude") {
        const seen = [r.stdout, r.stderr, ...laterRequests(r), await userMessages(host, dirs, r).catch(() => "")];
        assert(seen.some((t) => t.includes(said)), `the fix was said nowhere\n${describe(r)}`);
      } else {
        // codex exec prints a blocked hook's reason nowhere: its own word that it blocked (the prompt, so the turn
        // never reached the model or the tool).
        assertMatch(r.stderr, /hook: UserPromptSubmit Blocked/);
        assertEquals(r.requests.length, 0, describe(r));
      }
    },
  );

  Deno.test(
    {
      name: host === "claude"
        ? `${host}: a Claude-dialect ask is Claude Code's own ask (refused without a terminal, with the hook's reason)`
        : `${host}: a Claude-dialect ask is a deny that says the hook asks for approval (Codex has no ask)`,
      ...opts,
    },
    async () => {
      const dirs = await askingSetup(host, "ask");
      const r = await runHost(host, dirs, {
        command: ASKED_COMMAND,
        finalText: FINAL,
        prompt: "Run the shell command, then stop.",
        extraArgs: host === "codex" ? ["--dangerously-bypass-hook-trust"] : [],
      });
      assertEquals(r.code, 0, describe(r));
      assertEquals(await ranFile(dirs), null, "the command the hook asks about ran");
      const seen = laterRequests(r).join("\n");
      assert(seen.includes("[git-reset-hard] git reset --hard loses uncommitted work"), describe(r));
      if (host === "codex") assert(seen.includes("(this hook asks for your approval)"), describe(r));
    },
  );

  Deno.test(
    {
      name: `${host}: a session start names the hook that will not run (${
        host === "claude" ? "a hook system message" : "the UI's hook line; exec shows none"
      })`,
      ignore: opts.ignore || (host === "codex" && !(await tmuxAvailable())),
      sanitizeResources: false,
      sanitizeOps: false,
    },
    async () => {
      const dirs = await setup(host, "session-notice", mindHooks("PreToolUse", "deny.sh", "Bash"), false);
      const line = `mind-hooks: 1 hook will not run until reviewed — PreToolUse Bash "sh ${HOOKS}/deny.sh" ` +
        `(untrusted): run mind-hooks review`;
      if (host === "claude") {
        const r = await run(host, dirs);
        assertEquals(r.code, 0, describe(r));
        assert((await userMessages(host, dirs, r)).includes(line), describe(r));
        return;
      }
      const tui = await runHostTui("codex", dirs, {
        prompt: "Run the shell command, then stop.",
        command: TOOL_COMMAND,
        finalText: FINAL,
        args: ["--dangerously-bypass-hook-trust"],
        waitFor: /Hook · mind-hooks: 1 hook will not run until reviewed/,
      });
      assert(tui.matched, `the session-start line was not shown:\n${tui.screen}`);
      assert(tui.screen.replaceAll("\n", "").includes(line), tui.screen);
    },
  );

  Deno.test(
    { name: `${host}: a denying mind hook blocks the command and the model gets the reason`, ...opts },
    async () => {
      const dirs = await setup(host, "deny", mindHooks("PreToolUse", "deny.sh", "Bash"));
      const r = await run(host, dirs);
      assertEquals(r.code, 0, describe(r));
      assertEquals(await ranFile(dirs), null, "the denied command ran");
      assert(
        laterRequests(r).some((b) => b.includes("DENY-MARKER")),
        `the model never saw the reason\n${describe(r)}`,
      );
    },
  );

  Deno.test({ name: `${host}: a rewriting mind hook changes the command that runs`, ...opts }, async () => {
    const dirs = await setup(host, "rewrite", mindHooks("PreToolUse", "rewrite.sh", "Bash"));
    const r = await run(host, dirs);
    assertEquals(r.code, 0, describe(r));
    assertEquals(await ranFile(dirs), "rewritten", describe(r));
    assert(laterRequests(r).length >= 1, describe(r));
  });

  Deno.test({ name: `${host}: a mind hook's additionalContext reaches the model`, ...opts }, async () => {
    const dirs = await setup(host, "context", mindHooks("PostToolUse", "context.sh", "Bash"));
    const r = await run(host, dirs);
    assertEquals(r.code, 0, describe(r));
    assertEquals(await ranFile(dirs), "hello-from-tool");
    assert(laterRequests(r).some((b) => b.includes("CTX-MARKER")), `no context in the next request\n${describe(r)}`);
  });

  Deno.test(
    { name: `${host}: a mind Stop hook that blocks makes the host continue with its prompt`, ...opts },
    async () => {
      const dirs = await setup(host, "stop", mindHooks("Stop", "stop_continue.sh"));
      const r = await run(host, dirs);
      assertEquals(r.code, 0, describe(r));
      assertEquals(await ranFile(dirs), "hello-from-tool");
      const later = laterRequests(r);
      const at = later.findIndex((b) => b.includes("CONTINUE-MARKER"));
      assert(at >= 0, `the continuation prompt never reached the model\n${describe(r)}`);
      // The turn after the tool result ended once, then the continuation came as one more request.
      assert(at >= 1, `continuation arrived before the turn ended\n${describe(r)}`);
    },
  );

  Deno.test(
    {
      name: host === "claude"
        ? `${host}: an untrusted mind hook does not run and the user is told to review`
        // Codex's non-interactive exec shows hook systemMessages nowhere; mind-hooks' answer itself is
        // checked in tests/adapter_test.ts.
        : `${host}: an untrusted mind hook does not run (mind-hooks answers with the review message)`,
      ...opts,
    },
    async () => {
      const dirs = await setup(host, "untrusted", mindHooks("PreToolUse", "deny.sh", "Bash"), false);
      const r = await run(host, dirs);
      assertEquals(r.code, 0, describe(r));
      assertEquals(await ranFile(dirs), "hello-from-tool", "the untrusted hook blocked the command");
      assert(!laterRequests(r).some((b) => b.includes("DENY-MARKER")), "the untrusted hook ran");
      if (host === "claude") {
        assertMatch(await userMessages(host, dirs, r), /1 hook needs review: run mind-hooks review/, describe(r));
      }
    },
  );

  Deno.test({ name: `${host}: a failing mind hook lets the host proceed`, ...opts }, async () => {
    const dirs = await setup(host, "failing", mindHooks("PreToolUse", "fail.sh", "Bash"));
    const r = await run(host, dirs);
    assertEquals(r.code, 0, describe(r));
    assertEquals(await ranFile(dirs), "hello-from-tool", describe(r));
    const later = laterRequests(r);
    assert(later.length >= 1 && !later.some((b) => b.includes("broken on purpose")), describe(r));
    assertMatch(await Deno.readTextFile(`${dirs.mind}/logs/hooks.jsonl`), /"status":"failed"[^}]*"reason":"exit 1"/);
    if (host === "claude") {
      assertMatch(await userMessages(host, dirs, r), /hook user:.*:PreToolUse:0:0 failed: exit 1/, describe(r));
    }
  });
}

Deno.test(
  {
    name: "claude: a mind hook reads Claude Code's event exactly as a native Claude Code hook does (issue 33)",
    ignore: skipReason !== null,
    sanitizeResources: false,
    sanitizeOps: false,
  },
  async () => {
    // One recorder behind mind-hooks, one registered natively beside install's entries: both record what they read.
    const viaMind = `${HOOKS}/../../../.tmp/interop/passthrough-mind-${Deno.pid}.json`;
    const native = `${HOOKS}/../../../.tmp/interop/passthrough-native-${Deno.pid}.json`;
    const recorder = (file: string) => `HOOK_RECORD=${file} sh ${HOOKS}/echo_input.sh`;
    const events = ["UserPromptSubmit", "PreToolUse"] as const;
    const hooks = Object.fromEntries(
      events.map((e) => [e, [{ hooks: [{ type: "command", command: recorder(`${viaMind}.${e}`) }] }]]),
    );
    const dirs = await setup("claude", "passthrough", JSON.stringify({ hooks }));
    const settingsPath = `${dirs.hostDir}/settings.json`;
    const settings = JSON.parse(await Deno.readTextFile(settingsPath));
    for (const e of events) {
      settings.hooks[e] = [...(settings.hooks[e] ?? []), {
        hooks: [{ type: "command", command: recorder(`${native}.${e}`) }],
      }];
    }
    await Deno.writeTextFile(settingsPath, JSON.stringify(settings, null, 2));
    const r = await run("claude", dirs);
    assertEquals(r.code, 0, describe(r));
    for (const e of events) {
      const seenNative = JSON.parse(await Deno.readTextFile(`${native}.${e}`));
      const seenViaMind = JSON.parse(await Deno.readTextFile(`${viaMind}.${e}`));
      // Every field as Claude Code sent it (prompt_id, effort, … included); nothing added (no model, turn_id).
      assertEquals(seenViaMind, seenNative, e);
      for (const f of [`${native}.${e}`, `${viaMind}.${e}`]) await Deno.remove(f);
    }
  },
);
