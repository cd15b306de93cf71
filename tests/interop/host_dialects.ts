/**
 * Gemini CLI and Copilot CLI repositories with mind as the host (SPEC §2.8 r4, issue 33), against the real
 * CLIs: the same repository — real public hooks vendored in fixtures/thirdparty/ (github/awesome-copilot's
 * session logger and tool guardian; Gemini CLI's own documented block-secrets guard and tool logger) and the
 * small guards of fixtures/host_hooks/ — runs once under the real host, its hooks registered as that host
 * registers them, and once with mind-hooks reading them as its `gemini-project` / `copilot-project` layer
 * (`dispatch` with mind's own events, as mind's agent sends them). Compared: the decision, what reaches the
 * model, and the files the hooks write.
 *
 * Part of `deno task test:interop`; skipped, with the reason printed, when a host's package is missing (the
 * Gemini documentation case also when jq is, which its hooks need).
 * @module
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { cli, ensurePackages, hostEnv, makeRunDirs, REPO, type RunDirs, runHost } from "./harness.ts";
import type { DriverReport } from "./driver.ts";

type Host = "gemini" | "copilot";
const HOSTS: readonly Host[] = ["gemini", "copilot"];
const AWESOME = `${REPO}/fixtures/thirdparty/github-awesome-copilot/hooks`;
const HOST_HOOKS = `${REPO}/fixtures/host_hooks`;
const FINAL = "ALL DONE";
/** A command the guards refuse, harmless when it runs (nothing to remove), then the marker file. */
const COMMAND: Record<Host, string> = {
  copilot: "rm -rf /nonexistent-mind-interop-dir; echo hello-from-tool > ran.txt",
  gemini: "git commit --no-verify -m x 2>/dev/null; echo hello-from-tool > ran.txt",
};
const PROMPT = "Run the shell command, then stop.";

const skipReasons = await ensurePackages(HOSTS);
for (const host of HOSTS) {
  if (skipReasons[host]) console.log(`host dialect interop of ${host} skipped: ${skipReasons[host]}`);
}

/** The repository as its users set it up for `host`. */
async function layRepo(host: Host, work: string): Promise<void> {
  if (host === "copilot") {
    // A repository: Copilot CLI reads .github/hooks/ of a trusted repository (-p: --trust-folder).
    await new Deno.Command("git", { args: ["init", "-q", work] }).output();
    const hooks = `${work}/.github/hooks`;
    await Deno.mkdir(`${hooks}/session-logger`, { recursive: true });
    for (const f of ["log-prompt.sh", "log-session-start.sh", "log-session-end.sh"]) {
      await Deno.copyFile(`${AWESOME}/session-logger/${f}`, `${hooks}/session-logger/${f}`);
      await Deno.chmod(`${hooks}/session-logger/${f}`, 0o755);
    }
    await Deno.copyFile(`${AWESOME}/session-logger/hooks.json`, `${hooks}/session-logger.json`);
    await Deno.writeTextFile(
      `${hooks}/zz-deny-rm.json`,
      JSON.stringify({
        version: 1,
        hooks: { preToolUse: [{ type: "command", bash: `sh ${HOST_HOOKS}/deny_rm_root.sh`, timeoutSec: 10 }] },
      }),
    );
  } else {
    await Deno.mkdir(`${work}/.gemini`, { recursive: true });
    await Deno.writeTextFile(
      `${work}/.gemini/settings.json`,
      JSON.stringify({
        hooks: {
          BeforeTool: [{
            matcher: "run_shell_command",
            hooks: [{
              name: "no-verify",
              type: "command",
              command: `sh ${HOST_HOOKS}/block_no_verify.sh`,
              timeout: 10000,
            }],
          }],
        },
      }),
    );
  }
}

/** What the hooks wrote in the repository (their logs), by file: each entry's `event` field. */
async function written(work: string): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const f of ["logs/copilot/prompts.log", "logs/copilot/session.log"]) {
    try {
      // One JSON value per entry, some spread over lines (jq's): their `event` fields in order.
      out[f] = [...(await Deno.readTextFile(`${work}/${f}`)).matchAll(/"event":\s*"(\w+)"/g)].map((m) => m[1]);
    } catch {
      // not written
    }
  }
  return out;
}

async function ran(work: string): Promise<boolean> {
  return await Deno.stat(`${work}/ran.txt`).then(() => true, () => false);
}

/** What the model was told about the tool call (every request after the first). */
function toldModel(r: DriverReport): string {
  return r.requests.filter((q) => /generateContent|chat\/completions/i.test(q.path)).slice(1).map((q) =>
    JSON.stringify(q.body)
  ).join("\n");
}

/** mind as the host: the repository trusted, its hooks trusted, the prompt and the tool call dispatched. */
async function mindRun(host: Host, dirs: RunDirs) {
  const env = hostEnv(host, dirs);
  const at = (args: string[], stdin?: string) =>
    stdin === undefined ? cli(args, env, dirs.work) : dispatchWith(args, env, dirs.work, stdin);
  for (const args of [["project", "trust", dirs.work], ["trust", "--all", "--cwd", dirs.work]]) {
    const r = await at([...args, "--home", dirs.mind]);
    assertEquals(r.code, 0, r.stderr);
  }
  const base = { session_id: `interop-${host}`, transcript_path: null, cwd: dirs.work, model: "m", turn_id: "t1" };
  const events = [
    { ...base, hook_event_name: "SessionStart", permission_mode: "default", source: "startup" },
    { ...base, hook_event_name: "UserPromptSubmit", permission_mode: "default", prompt: PROMPT },
    {
      ...base,
      hook_event_name: "PreToolUse",
      permission_mode: "default",
      tool_name: "Bash",
      tool_use_id: "call-1",
      tool_input: { command: COMMAND[host] },
    },
    {
      session_id: base.session_id,
      transcript_path: null,
      cwd: dirs.work,
      hook_event_name: "SessionEnd",
      reason: "other",
    },
  ];
  const results = [];
  for (const e of events) {
    const r = await at(["dispatch", "--home", dirs.mind], JSON.stringify(e));
    assertEquals(r.code, 0, r.stderr);
    results.push(JSON.parse(r.stdout));
  }
  return results;
}

async function dispatchWith(args: string[], env: Record<string, string>, cwd: string, stdin: string) {
  const { launcherWords } = await import("./harness.ts");
  const [bin, ...rest] = launcherWords();
  const child = new Deno.Command(bin, {
    args: [...rest, ...args],
    env,
    cwd,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  })
    .spawn();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(stdin));
  await w.close();
  const out = await child.output();
  return { code: out.code, stdout: new TextDecoder().decode(out.stdout), stderr: new TextDecoder().decode(out.stderr) };
}

for (const host of HOSTS) {
  Deno.test(
    {
      name: host === "copilot"
        ? "copilot repo: the preToolUse guard's non-zero exit denies and the audit logger writes, under Copilot CLI and under mind"
        : "gemini repo: BeforeTool's {decision: deny} blocks git commit --no-verify, under Gemini CLI and under mind",
      ignore: skipReasons[host] !== null,
      sanitizeResources: false,
      sanitizeOps: false,
    },
    async () => {
      // The real host, the repository's own hooks registered as it registers them.
      const native = await makeRunDirs(host, "dialect-native");
      await layRepo(host, native.work);
      const r = await runHost(host, native, {
        command: COMMAND[host],
        finalText: FINAL,
        prompt: PROMPT,
        numbered: true,
        ...(host === "gemini" ? { trustWorkspace: true } : { env: { GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS: "true" } }),
      });
      const nativeTold = toldModel(r);
      // mind as the host, the same repository read as its gemini-project / copilot-project layer.
      const viaMind = await makeRunDirs(host, "dialect-mind");
      await layRepo(host, viaMind.work);
      const [start, prompt, tool] = await mindRun(host, viaMind);

      // The decision: the call is refused by both.
      assertEquals(await ran(native.work), false, `${host} ran the refused command\n${r.stderr.slice(-2000)}`);
      assertEquals(tool.decision, "deny", JSON.stringify(tool));
      // What reaches the model: the host's block words with the reason; mind's result carries the reason.
      if (host === "gemini") {
        const reason = "git commit --no-verify skips the pre-commit checks";
        assert(nativeTold.includes(`Tool execution blocked: ${reason}`), nativeTold.slice(-2000));
        assert(String(tool.reason).startsWith(reason), tool.reason);
      } else {
        // Copilot CLI words a failed hook its own way and drops stderr; mind gives the hook's stderr line.
        assert(nativeTold.includes("Denied by preToolUse hook"), nativeTold.slice(-2000));
        assertEquals(tool.reason, "refusing rm -rf /");
      }
      // The files the hooks wrote: the same under both hosts.
      assertEquals(await written(viaMind.work), await written(native.work));
      if (host === "copilot") {
        assertEquals(await written(native.work), {
          "logs/copilot/prompts.log": ["userPromptSubmitted"],
          "logs/copilot/session.log": ["sessionStart", "sessionEnd"],
        });
        assertEquals([start.decision, prompt.decision], [null, null]);
      }
    },
  );
}

Deno.test(
  {
    name:
      "copilot repo: awesome-copilot's tool guardian reads toolInput, which Copilot CLI does not send: every call is denied, there and under mind",
    ignore: skipReasons.copilot !== null,
    sanitizeResources: false,
    sanitizeOps: false,
  },
  async () => {
    const lay = async (work: string) => {
      await new Deno.Command("git", { args: ["init", "-q", work] }).output();
      await Deno.mkdir(`${work}/hooks/tool-guardian`, { recursive: true });
      await Deno.copyFile(`${AWESOME}/tool-guardian/guard-tool.sh`, `${work}/hooks/tool-guardian/guard-tool.sh`);
      await Deno.chmod(`${work}/hooks/tool-guardian/guard-tool.sh`, 0o755);
      await Deno.mkdir(`${work}/.github/hooks`, { recursive: true });
      await Deno.copyFile(`${AWESOME}/tool-guardian/hooks.json`, `${work}/.github/hooks/tool-guardian.json`);
    };
    const harmless = "echo hello-from-tool > ran.txt";
    const native = await makeRunDirs("copilot", "guardian-native");
    await lay(native.work);
    const r = await runHost("copilot", native, {
      command: harmless,
      finalText: FINAL,
      prompt: PROMPT,
      extraArgs: ["--trust-folder"],
    });
    assertEquals(await ran(native.work), false, "Copilot CLI ran the call");
    assert(toldModel(r).includes("hook errored"), toldModel(r).slice(-1500));
    const viaMind = await makeRunDirs("copilot", "guardian-mind");
    await lay(viaMind.work);
    const env = hostEnv("copilot", viaMind);
    for (const args of [["project", "trust", viaMind.work], ["trust", "--all", "--cwd", viaMind.work]]) {
      assertEquals((await cli([...args, "--home", viaMind.mind], env, viaMind.work)).code, 0);
    }
    const event = {
      session_id: "interop-guardian",
      transcript_path: null,
      cwd: viaMind.work,
      model: "m",
      turn_id: "t1",
      hook_event_name: "PreToolUse",
      permission_mode: "default",
      tool_name: "Bash",
      tool_use_id: "call-1",
      tool_input: { command: harmless },
    };
    const d = await dispatchWith(["dispatch", "--home", viaMind.mind], env, viaMind.work, JSON.stringify(event));
    assertEquals([JSON.parse(d.stdout).decision, JSON.parse(d.stdout).reason], ["deny", "hook exited with code 1"]);
  },
);

/** Gemini CLI's own documented example hooks (google-gemini/gemini-cli, Apache-2.0, vendored unchanged). */
const GEMINI_DOCS = `${REPO}/fixtures/thirdparty/google-gemini-cli`;
/** Both example hooks read their input with jq, as the guide says they do. */
const jqMissing = (await new Deno.Command("sh", { args: ["-c", "command -v jq"], stdout: "null" }).output()).success
  ? null
  : "jq is not on PATH (the documented example hooks read their input with it)";
if (jqMissing && !skipReasons.gemini) console.log(`gemini documentation hooks interop skipped: ${jqMissing}`);

/** The repository as Gemini CLI's hooks guide has its users set it up: both scripts, both settings snippets. */
async function layGeminiDocs(work: string): Promise<void> {
  await Deno.mkdir(`${work}/.gemini/hooks`, { recursive: true });
  for (const f of ["log-tools.sh", "block-secrets.sh"]) {
    await Deno.copyFile(`${GEMINI_DOCS}/hooks/${f}`, `${work}/.gemini/hooks/${f}`);
    await Deno.chmod(`${work}/.gemini/hooks/${f}`, 0o755);
  }
  // The two documented snippets in one `.gemini/settings.json`, as a user following both sections has it.
  const hooks: Record<string, unknown> = {};
  for (const f of ["secret-scanner.json", "tool-logger.json"]) {
    Object.assign(hooks, JSON.parse(await Deno.readTextFile(`${GEMINI_DOCS}/settings/${f}`)).hooks);
  }
  await Deno.writeTextFile(`${work}/.gemini/settings.json`, JSON.stringify({ hooks }, null, 2));
}

/** The two writes the model asks for: one whose content names a secret, one harmless. */
const WRITES = {
  secret: { file: "config.env", content: "api_key=abc123\n" },
  harmless: { file: "notes.txt", content: "hello from the model\n" },
} as const;
const SECRET_REASON = "Security Policy: Potential secret detected in content.";
/** The guard's `systemMessage`: shown to the user, not the model. */
const SECRET_NOTICE = "🔒 Security scanner blocked operation";

/** The logger's lines in `.gemini/tool-log.txt`, without their `[$(date)] ` prefix. */
async function toolLog(work: string): Promise<string[]> {
  const text = await Deno.readTextFile(`${work}/.gemini/tool-log.txt`).catch(() => "");
  return text.split("\n").filter((l) => l !== "").map((l) => l.replace(/^\[[^\]]*\] /, ""));
}

/** Which of the two files exist, with their contents. */
async function targets(work: string): Promise<Record<string, string | null>> {
  const out: Record<string, string | null> = {};
  for (const w of Object.values(WRITES)) out[w.file] = await Deno.readTextFile(`${work}/${w.file}`).catch(() => null);
  return out;
}

Deno.test(
  {
    name:
      "gemini repo: Gemini CLI's documented block-secrets guard and tool logger (vendored) deny a secret, allow a harmless write and log it, under Gemini CLI and under mind",
    ignore: skipReasons.gemini !== null || jqMissing !== null,
    sanitizeResources: false,
    sanitizeOps: false,
  },
  async () => {
    // The real Gemini CLI in a trusted workspace, one run per write (the model asks for one write_file call).
    const native = await makeRunDirs("gemini", "docs-native");
    await layGeminiDocs(native.work);
    const told: Record<string, string> = {};
    const shown: Record<string, string> = {};
    for (const [kind, w] of Object.entries(WRITES)) {
      const r = await runHost("gemini", native, {
        command: "",
        finalText: FINAL,
        prompt: `Write ${w.file}, then stop.`,
        numbered: true,
        trustWorkspace: true,
        tool: { name: "write_file", args: { file_path: `${native.work}/${w.file}`, content: w.content } },
      });
      told[kind] = toldModel(r);
      shown[kind] = r.stdout + r.stderr;
      assert(r.code === 0, `gemini exited ${r.code}\n${r.stderr.slice(-2000)}`);
    }

    // mind as the host: the same repository as its gemini-project layer, the agent's Write calls dispatched;
    // an allowed write is carried out (as mind's agent does) and reported with PostToolUse.
    const viaMind = await makeRunDirs("gemini", "docs-mind");
    await layGeminiDocs(viaMind.work);
    const env = hostEnv("gemini", viaMind);
    for (const args of [["project", "trust", viaMind.work], ["trust", "--all", "--cwd", viaMind.work]]) {
      const t = await cli([...args, "--home", viaMind.mind], env, viaMind.work);
      assertEquals(t.code, 0, t.stderr);
    }
    const dispatch = async (event: Record<string, unknown>) => {
      const d = await dispatchWith(["dispatch", "--home", viaMind.mind], env, viaMind.work, JSON.stringify(event));
      assertEquals(d.code, 0, d.stderr);
      return JSON.parse(d.stdout);
    };
    const base = { session_id: "interop-gemini-docs", transcript_path: null, cwd: viaMind.work, model: "m" };
    const decided: Record<string, { decision: unknown; reason: unknown; systemMessages: unknown }> = {};
    for (const [kind, w] of Object.entries(WRITES)) {
      const call = {
        ...base,
        turn_id: `t-${kind}`,
        permission_mode: "default",
        tool_name: "Write",
        tool_use_id: `call-${kind}`,
        tool_input: { file_path: `${viaMind.work}/${w.file}`, content: w.content },
      };
      const pre = await dispatch({ ...call, hook_event_name: "PreToolUse" });
      decided[kind] = { decision: pre.decision, reason: pre.reason, systemMessages: pre.systemMessages };
      if (pre.decision === "deny") continue;
      await Deno.writeTextFile(`${viaMind.work}/${w.file}`, w.content);
      const post = await dispatch({ ...call, hook_event_name: "PostToolUse", tool_response: { success: true } });
      assertEquals(post.decision, null, JSON.stringify(post));
    }

    // The decision: the secret is refused by both, the harmless write is not.
    assertEquals(decided.secret, { decision: "deny", reason: SECRET_REASON, systemMessages: [SECRET_NOTICE] });
    // `{"decision": "allow"}` on BeforeTool lets the call go on as usual (Gemini CLI acts only on deny, block
    // and ask there): no decision of mind's either, so the agent's own permission rules still apply.
    assertEquals(decided.harmless, { decision: null, reason: null, systemMessages: [] });
    // What reaches the model: Gemini CLI's block words with the hook's reason; the harmless write succeeds.
    assert(told.secret.includes(`Tool execution blocked: ${SECRET_REASON}`), told.secret.slice(-2000));
    assert(!told.harmless.includes("Tool execution blocked"), told.harmless.slice(-2000));
    // The guard's systemMessage is the user's, not the model's: Gemini CLI prints it, mind returns it as such.
    assert(shown.secret.includes(`Hook system message: ${SECRET_NOTICE}`), shown.secret.slice(-2000));
    assert(!told.secret.includes(SECRET_NOTICE), told.secret.slice(-2000));
    // The files: the secret is written by neither, the harmless file by both, and the logger's line alike.
    const expected = { [WRITES.secret.file]: null, [WRITES.harmless.file]: WRITES.harmless.content };
    assertEquals(await targets(native.work), expected);
    assertEquals(await targets(viaMind.work), expected);
    assertEquals(await toolLog(native.work), ["Tool executed: write_file"]);
    assertEquals(await toolLog(viaMind.work), await toolLog(native.work));
  },
);
