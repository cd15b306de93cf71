/**
 * Interop tests with the real Gemini CLI (`@google/gemini-cli`) and GitHub Copilot CLI (`@github/copilot`)
 * from the npm registry, pinned to the releases whose hook protocols were measured, driven non-interactively
 * against a mock model on 127.0.0.1 inside the loopback-only network namespace (tests/interop/harness.ts),
 * with `mind-hooks install <host>` registering the delegating entries and real mind hook scripts behind them.
 *
 * Each case asserts what the mock model received after the tool call (or at the end of a turn), whether the
 * shell command really ran, and what mind-hooks logged. Part of `deno task test:interop`; a host's tests skip,
 * with the reason printed, only when its package cannot be installed.
 * @module
 */
import { leavingCalls, loopbackCalls } from "./net_calls.ts";
import { assert, assertEquals } from "../helpers/assert.ts";
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
  type RunOptions,
} from "./harness.ts";
import type { DriverReport } from "./driver.ts";

type Host = "gemini" | "copilot";
const HOSTS: readonly Host[] = ["gemini", "copilot"];
const HOOKS = `${REPO}/fixtures/adapter/hooks`;
const TOOL_COMMAND = "echo hello-from-tool > ran.txt";
const FINAL = "ALL DONE";
/** The loop cap the always-continuing case runs with (`hooks.stop_block_cap`). */
const CAP = 3;

const skipReasons = await ensurePackages(HOSTS);
// Each test run starts from clean run directories of these hosts (a failed run's are kept until then).
try {
  for (const e of Deno.readDirSync(`${REPO}/.tmp/interop/runs`)) {
    if (HOSTS.some((h) => e.name.startsWith(`${h}-`))) {
      Deno.removeSync(`${REPO}/.tmp/interop/runs/${e.name}`, { recursive: true });
    }
  }
} catch {
  // No runs yet.
}
for (const host of HOSTS) {
  if (skipReasons[host]) console.log(`interop tests of ${host} skipped: ${skipReasons[host]}`);
}
if (HOSTS.some((h) => !skipReasons[h])) {
  console.log(
    `interop: ${HOSTS.filter((h) => !skipReasons[h]).map((h) => PACKAGES[h]).join(", ")}; network ${
      await canIsolateNetwork() ? "isolated (loopback-only namespace)" : "NOT isolated (unshare unavailable)"
    }`,
  );
  // Hooks start mind-hooks inside a namespace without network: every module must be cached first.
  await new Deno.Command(Deno.execPath(), { args: ["cache", "--config", `${REPO}/deno.json`, `${REPO}/main.ts`] })
    .output();
}

/** A mind hooks.json with one handler on `event`, running `script`. */
function mindHooks(event: string, script: string, matcher?: string): string {
  const group = { ...(matcher ? { matcher } : {}), hooks: [{ type: "command", command: `sh ${HOOKS}/${script}` }] };
  return JSON.stringify({ hooks: { [event]: [group] } }, null, 2);
}

/** Lays out a run: mind hooks (trusted unless told), the host's delegating entries via `mind-hooks install`. */
async function setup(host: Host, label: string, hooksJson: string, opts: { trusted?: boolean; config?: string } = {}) {
  const dirs = await makeRunDirs(host, label);
  await Deno.writeTextFile(`${dirs.mind}/hooks.json`, hooksJson);
  if (opts.config) await Deno.writeTextFile(`${dirs.mind}/config.toml`, opts.config);
  const env = hostEnv(host, dirs);
  if (opts.trusted !== false) {
    const t = await cli(["trust", "--all", "--home", dirs.mind], env);
    assertEquals(t.code, 0, t.stderr);
  }
  const inst = await cli(["install", host, "--user", "--command", launcher()], env);
  assertEquals(inst.code, 0, inst.stderr);
  return dirs;
}

function run(host: Host, dirs: RunDirs, over: Partial<RunOptions> = {}): Promise<DriverReport> {
  return runHost(host, dirs, {
    command: TOOL_COMMAND,
    finalText: FINAL,
    prompt: "Run the shell command, then stop.",
    // Gemini CLI ends a turn whose text repeats itself word for word; numbered answers keep loops honest.
    numbered: true,
    ...over,
  });
}

async function ranFile(dirs: RunDirs): Promise<string | null> {
  try {
    return (await Deno.readTextFile(`${dirs.work}/ran.txt`)).trim();
  } catch {
    return null;
  }
}

/** The model requests (Gemini's generate calls, Copilot's chat completions), as JSON text, in order. */
function modelRequests(r: DriverReport): string[] {
  return r.requests.filter((q) => /generateContent|chat\/completions/i.test(q.path)).map((q) => JSON.stringify(q.body));
}

/** Model requests after the first (which only carries the prompt). */
function laterRequests(r: DriverReport): string[] {
  return modelRequests(r).slice(1);
}

function describe(r: DriverReport): string {
  return `exit ${r.code}, ${r.requests.length} requests\n--- stdout\n${r.stdout.slice(-3000)}\n--- stderr\n${
    r.stderr.slice(-3000)
  }`;
}

async function mindLog(dirs: RunDirs): Promise<string> {
  try {
    return await Deno.readTextFile(`${dirs.mind}/logs/hooks.jsonl`);
  } catch {
    return "";
  }
}

/** How many times `marker` came to the model as a user turn of its own (a continuation prompt). */
function userTurnsWith(host: Host, r: DriverReport, marker: string): number {
  const last = r.requests.filter((q) => /generateContent|chat\/completions/i.test(q.path)).at(-1)?.body ?? {};
  const turns = host === "gemini"
    ? ((last.contents ?? []) as { role?: string; parts?: { text?: string }[] }[])
      .filter((c) => c.role === "user").map((c) => (c.parts ?? []).map((p) => p.text ?? "").join(""))
    : ((last.messages ?? []) as { role?: string; content?: unknown }[])
      .filter((m) => m.role === "user").map((m) =>
        typeof m.content === "string" ? m.content : JSON.stringify(m.content)
      );
  return turns.filter((t) => t.includes(marker)).length;
}

/** karanb192's block-dangerous-commands (vendored unchanged), the guard the `ask` cases run in its ask mode. */
/** A command the guard asks about (`git reset --hard`), harmless here (no repository), then the marker. */
const ASKED_COMMAND = "git reset --hard 2>/dev/null; echo hello-from-tool > ran.txt";
const ASK_REASON = "[git-reset-hard] git reset --hard loses uncommitted work";

for (const host of HOSTS) {
  const opts = { ignore: skipReasons[host] !== null, sanitizeResources: false, sanitizeOps: false };

  Deno.test(
    {
      name: host === "gemini"
        ? `${host}: a Claude-dialect ask is Gemini CLI's own ask (headless: the call does not run)`
        : `${host}: a Claude-dialect ask is Copilot CLI's own ask (-p: denied, unable to ask, with the reason)`,
      ...opts,
    },
    async () => {
      const dirs = await askingSetup(host, "ask");
      const r = await run(host, dirs, { command: ASKED_COMMAND });
      assertEquals(await ranFile(dirs), null, `the command the hook asks about ran\n${describe(r)}`);
      if (host === "gemini") {
        // Gemini CLI's own ask, headless (as with a hook of its own answering ask): the run ends, unanswered.
        assertEquals([r.code, laterRequests(r), r.stdout.trim()], [0, [], ""], describe(r));
      } else {
        const seen = laterRequests(r).join("\n");
        assert(seen.includes(`unable to ask user for confirmation): ⛔ ${ASK_REASON}`), describe(r));
      }
    },
  );

  Deno.test(
    {
      name: host === "gemini"
        ? `${host}: a session start names the hook that will not run (its session-start message, on stderr)`
        : `${host}: a session start names the hook that will not run (a hook warning: session.warning in -p)`,
      ...opts,
    },
    async () => {
      const dirs = await setup(host, "session-notice", mindHooks("PreToolUse", "deny.sh", "Bash"), { trusted: false });
      const r = await run(host, dirs);
      assertEquals(r.code, 0, describe(r));
      const line = `mind-hooks: 1 hook will not run until reviewed — PreToolUse Bash "sh ${HOOKS}/deny.sh" ` +
        `(untrusted): run mind-hooks review`;
      if (host === "gemini") assert(r.stderr.includes(line), describe(r));
      else {
        const warnings = r.stdout.split("\n").filter((l) => l.includes('"session.warning"')).map((l) =>
          JSON.parse(l).data
        );
        assertEquals(warnings.filter((w) => w.warningType === "hook").map((w) => w.message), [line], describe(r));
      }
    },
  );

  Deno.test(
    { name: `${host}: a denying mind hook blocks the command and the model gets the reason`, ...opts },
    async () => {
      const dirs = await setup(host, "deny", mindHooks("PreToolUse", "deny.sh", "Bash"));
      const r = await run(host, dirs);
      assertEquals(r.code, 0, describe(r));
      assertEquals(await ranFile(dirs), null, "the denied command ran");
      assert(laterRequests(r).some((b) => b.includes("DENY-MARKER")), `the model never saw the reason\n${describe(r)}`);
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
    { name: `${host}: a mind SessionStart hook's context reaches the model's first request`, ...opts },
    async () => {
      const dirs = await setup(host, "session-context", mindHooks("SessionStart", "context.sh"));
      const r = await run(host, dirs);
      assertEquals(r.code, 0, describe(r));
      assert(modelRequests(r)[0]?.includes("CTX-MARKER"), `no context in the first request\n${describe(r)}`);
    },
  );

  Deno.test({ name: `${host}: a mind Stop hook that blocks once makes the host continue once`, ...opts }, async () => {
    const dirs = await setup(host, "stop", mindHooks("Stop", "stop_continue.sh"));
    const r = await run(host, dirs);
    assertEquals(r.code, 0, describe(r));
    assertEquals(await ranFile(dirs), "hello-from-tool");
    const later = laterRequests(r);
    const at = later.findIndex((b) => b.includes("CONTINUE-MARKER"));
    assert(at >= 1, `the continuation prompt never came after the turn ended\n${describe(r)}`);
    assertEquals(userTurnsWith(host, r, "CONTINUE-MARKER"), 1, describe(r));
  });

  Deno.test(
    { name: `${host}: a mind Stop hook that always continues stops at mind's loop cap`, ...opts },
    async () => {
      const dirs = await setup(host, "stop-cap", mindHooks("Stop", "stop_always.sh"), {
        config: `[hooks]\nstop_block_cap = ${CAP}\n`,
      });
      const r = await run(host, dirs, { timeoutMs: 120_000 });
      assertEquals(r.code, 0, describe(r));
      // Exactly CAP continuations reached the model; the next block was ignored and the turn ended.
      assertEquals(userTurnsWith(host, r, "ALWAYS-MARKER"), CAP, describe(r));
      const log = await mindLog(dirs);
      assert(log.includes(`"code":"W_STOP_LOOP_CAP"`), log);
    },
  );

  Deno.test(
    {
      name: host === "gemini"
        ? `${host}: an untrusted mind hook does not run and the user is told to review`
        // Copilot CLI shows hook systemMessages nowhere in -p mode; mind-hooks' answer itself is checked in
        // tests/adapter_gemini_copilot_test.ts, the skip in mind's log.
        : `${host}: an untrusted mind hook does not run (mind-hooks answers with the review message)`,
      ...opts,
    },
    async () => {
      const dirs = await setup(host, "untrusted", mindHooks("PreToolUse", "deny.sh", "Bash"), { trusted: false });
      const r = await run(host, dirs);
      assertEquals(r.code, 0, describe(r));
      assertEquals(await ranFile(dirs), "hello-from-tool", "the untrusted hook blocked the command");
      assert(!laterRequests(r).some((b) => b.includes("DENY-MARKER")), "the untrusted hook ran");
      assert(/"status":"skipped"[^}]*"reason":"untrusted"/.test(await mindLog(dirs)), await mindLog(dirs));
      if (host === "gemini") {
        assert(/Hook system message: 1 hook needs review: run mind-hooks review/.test(r.stderr), describe(r));
      }
    },
  );

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
      assert(
        [r.stdout, r.stderr, ...laterRequests(r)].some((t) => t.includes(said)),
        `the fix was said nowhere\n${describe(r)}`,
      );
    },
  );

  Deno.test({ name: `${host}: a failing mind hook lets the host proceed`, ...opts }, async () => {
    const dirs = await setup(host, "failing", mindHooks("PreToolUse", "fail.sh", "Bash"));
    const r = await run(host, dirs);
    assertEquals(r.code, 0, describe(r));
    assertEquals(await ranFile(dirs), "hello-from-tool", describe(r));
    const later = laterRequests(r);
    assert(later.length >= 1 && !later.some((b) => b.includes("broken on purpose")), describe(r));
    assert(/"status":"failed"[^}]*"reason":"exit 1"/.test(await mindLog(dirs)), await mindLog(dirs));
    if (host === "gemini") {
      assert(/Hook system message: hook user:.*:PreToolUse:0:0 failed: exit 1/.test(r.stderr), describe(r));
    }
  });

  Deno.test(
    { name: `${host}: nothing leaves 127.0.0.1 (every connect and sendto, under strace)`, ...opts },
    async () => {
      const dirs = await setup(host, "net", mindHooks("PostToolUse", "context.sh", "Bash"));
      const trace = `${dirs.root}/strace.txt`;
      const r = await run(host, dirs, { straceOut: trace });
      assertEquals(r.code, 0, describe(r));
      assertEquals(await ranFile(dirs), "hello-from-tool");
      // The loopback-only namespace is the proof; the trace shows what could have left it: a call off loopback
      // the kernel did not refuse at once (a DNS connect refused with ENETUNREACH sent nothing).
      const text = await Deno.readTextFile(trace);
      assert(loopbackCalls(text).length >= 1, `no connection to the mock was seen\n${text.slice(0, 2000)}`);
      assertEquals(leavingCalls(text), [], "a connection could have left loopback");
    },
  );
}

Deno.test({
  name: "copilot: a denying mind PermissionRequest hook refuses the approval and the model gets the message",
  ignore: skipReasons.copilot !== null,
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const dirs = await setup("copilot", "permission", mindHooks("PermissionRequest", "perm_deny.sh", "Bash"));
  const r = await run("copilot", dirs);
  assertEquals(r.code, 0, describe(r));
  assertEquals(await ranFile(dirs), null, "the refused command ran");
  assert(laterRequests(r).some((b) => b.includes("PERM-MARKER")), `the model never saw the message\n${describe(r)}`);
});
