/**
 * `mind-hooks install gemini|copilot`: the plans (entries shaped like each host's own, Gemini's `name` and
 * millisecond `timeout`, Copilot's flat handlers with `bash` and `timeoutSec`, its camelCase
 * `permissionRequest` named by `--event`, PreCompress not registered), idempotence and byte-exact uninstall on
 * settings files with comments; and the real CLI in its sandbox: the files each scope writes, the launcher
 * refusal (a missing program blocks every tool call in both hosts), uninstall leaving nothing it created.
 */
import { parse as parseJsonc } from "jsonc-parser";
import { assert, assertEquals, assertStringIncludes } from "./helpers/assert.ts";
import { runCli } from "./helpers/cli.ts";
import { HOST_EVENTS } from "../src/adapter/hosts.ts";
import { planEdit, registeredCommand } from "../src/adapter/settings.ts";

const POSIX = Deno.build.os !== "windows";
const DENO_DIR: string = JSON.parse(
  new TextDecoder().decode((await new Deno.Command(Deno.execPath(), { args: ["info", "--json"] }).output()).stdout),
).denoDir;

const GEMINI_SETTINGS = `{
  // Gemini CLI settings of a user.
  "model": { "name": "gemini-2.5-pro" },
  "hooks": {
    "BeforeTool": [
      { "matcher": "write_file", "hooks": [{ "type": "command", "command": "./lint.sh", "name": "lint" }] }
    ]
  },
  "hooksConfig": { "enabled": true }, // keep
}
`;

const entry = (command: string, timeout: number) => ({ type: "command", command, name: "mind-hooks", timeout });

Deno.test("install plan gemini: Gemini's entry shape, every mapped event but PreCompress, reversible to the byte", () => {
  const plan = planEdit("gemini", GEMINI_SETTINGS, { launcher: "mind-hooks", uninstall: false, file: "f" });
  assert(plan.changed && plan.text !== null);
  const hooks = parseJsonc(plan.text).hooks;
  // Each entry runs the call inside its fail-closed guard (SPEC §6 r4): exit 2, or 1 on a continuation event.
  const cmd = registeredCommand("gemini", "PreToolUse", "mind-hooks", "mind-hooks install gemini");
  assert(cmd.includes("; mind-hooks dispatch --protocol gemini; s=$?;"), cmd);
  assertEquals(Object.keys(hooks), [
    "BeforeTool",
    "SessionStart",
    "SessionEnd",
    "BeforeAgent",
    "AfterTool",
    "AfterAgent",
    "Notification",
  ]);
  assertEquals(hooks.BeforeTool, [
    { matcher: "write_file", hooks: [{ type: "command", command: "./lint.sh", name: "lint" }] },
    { matcher: "*", hooks: [entry(cmd, 630_000)] },
  ]);
  assertEquals(hooks.SessionEnd, [{ hooks: [entry(cmd, 33_000)] }]);
  assertEquals(hooks.AfterTool, [{ matcher: "*", hooks: [entry(cmd, 630_000)] }]);
  assertEquals(hooks.AfterAgent, [{ hooks: [entry(cmd.replaceAll("exit 2;", "exit 1;"), 630_000)] }]);
  assertEquals(plan.events, [...HOST_EVENTS.gemini]);
  assert(plan.text.includes("// keep") && plan.text.includes("// Gemini CLI settings of a user."), plan.text);
  const again = planEdit("gemini", plan.text, { launcher: "mind-hooks", uninstall: false, file: "f" });
  assertEquals([again.changed, again.text], [false, plan.text]);
  const removed = planEdit("gemini", plan.text, { launcher: "mind-hooks", uninstall: true, file: "f" });
  assertEquals(removed.text, GEMINI_SETTINGS);

  // A PreCompress entry of ours that the user added by hand is left on install and removed on uninstall.
  const withCompress = planEdit("gemini", null, { launcher: "m", uninstall: false, file: "f" }).text!
    .replace(
      `"hooks": {`,
      `"hooks": {\n    "PreCompress": [{ "hooks": [{ "type": "command", "command": "m dispatch --protocol gemini" }] }],`,
    );
  assertEquals(planEdit("gemini", withCompress, { launcher: "m", uninstall: false, file: "f" }).changed, false);
  const gone = planEdit("gemini", withCompress, { launcher: "m", uninstall: true, file: "f" });
  assertEquals([gone.text, gone.events.includes("PreCompact")], [null, true]);
});

Deno.test("install plan copilot: flat handlers, permissionRequest with --event, the repository file's own form", () => {
  const project = { project: "/p" };
  const plan = planEdit("copilot", null, { launcher: "mind-hooks", uninstall: false, file: "f", scope: project });
  const file = JSON.parse(plan.text!);
  const fix = "mind-hooks install copilot --project /p";
  const cmd = registeredCommand("copilot", "PreToolUse", "mind-hooks", fix);
  assertEquals(file.version, 1);
  assertEquals(Object.keys(file.hooks), [
    "SessionStart",
    "SessionEnd",
    "UserPromptSubmit",
    "PreToolUse",
    "permissionRequest",
    "PostToolUse",
    "PostToolUseFailure",
    "PreCompact",
    "SubagentStart",
    "SubagentStop",
    "Stop",
    "Notification",
  ]);
  assertEquals(file.hooks.PreToolUse, [{ type: "command", bash: cmd, timeoutSec: 630 }]);
  assertEquals(file.hooks.permissionRequest, [{
    type: "command",
    bash: registeredCommand("copilot", "PermissionRequest", "mind-hooks", fix),
    timeoutSec: 630,
  }]);
  assertStringIncludes(
    file.hooks.permissionRequest[0].bash,
    "mind-hooks dispatch --protocol copilot --event permissionRequest;",
  );
  assertEquals(file.hooks.SessionEnd, [{ type: "command", bash: cmd, timeoutSec: 33 }]);
  const again = planEdit("copilot", plan.text, { launcher: "mind-hooks", uninstall: false, file: "f", scope: project });
  assertEquals(again.changed, false);
  // Another launcher replaces ours in place; others' hooks in the same list stay.
  const shared = plan.text!.replace(
    `"PreToolUse": [`,
    `"PreToolUse": [\n      { "type": "command", "bash": "./guard.sh" },`,
  );
  const moved = planEdit("copilot", shared, { launcher: "/opt/mh", uninstall: false, file: "f", scope: project });
  assertEquals(JSON.parse(moved.text!).hooks.PreToolUse.map((h: { bash: string }) => h.bash), [
    "./guard.sh",
    registeredCommand("copilot", "PreToolUse", "/opt/mh", fix),
  ]);
  const gone = planEdit("copilot", plan.text, { launcher: "mind-hooks", uninstall: true, file: "f", scope: project });
  assertEquals([gone.changed, gone.text], [true, null], "a hooks file left with only its version is deleted");
  // The user's settings.json keeps its other settings, byte for byte.
  const user = `{\n  "model": "gpt-5.4", // mine\n  "trusted_folders": ["/src"]\n}\n`;
  const u = planEdit("copilot", user, { launcher: "mind-hooks", uninstall: false, file: "f" });
  assertEquals(JSON.parse(u.text!.replace("// mine", "")).hooks.Stop, [{
    type: "command",
    bash: registeredCommand("copilot", "Stop", "mind-hooks", "mind-hooks install copilot"),
    timeoutSec: 630,
  }]);
  assertEquals(planEdit("copilot", u.text, { launcher: "mind-hooks", uninstall: true, file: "f" }).text, user);
});

async function exists(p: string): Promise<boolean> {
  try {
    await Deno.lstat(p);
    return true;
  } catch {
    return false;
  }
}

/** A temp root with `home/`, `proj/` and `bin/` (holding an executable `mind-hooks`). */
async function layout() {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "mind-hooks-install-hosts-" }));
  for (const d of ["home", "proj", "bin"]) await Deno.mkdir(`${root}/${d}`);
  await Deno.writeTextFile(`${root}/bin/mind-hooks`, "#!/bin/sh\n");
  await Deno.chmod(`${root}/bin/mind-hooks`, 0o755);
  const env = { HOME: `${root}/home`, PATH: `${root}/bin:/usr/bin:/bin`, DENO_DIR };
  return { root, env, cleanup: () => Deno.remove(root, { recursive: true }) };
}

Deno.test({
  name: "install gemini|copilot: each scope's file, the launcher check, uninstall leaves nothing it created",
  ignore: !POSIX,
  async fn() {
    const t = await layout();
    try {
      const cases = [
        ["gemini", ["--project", `${t.root}/proj`], `${t.root}/proj/.gemini/settings.json`, [`${t.root}/proj/.gemini`]],
        ["gemini", [], `${t.root}/home/.gemini/settings.json`, [`${t.root}/home/.gemini`]],
        ["copilot", ["--project", `${t.root}/proj`], `${t.root}/proj/.github/hooks/mind-hooks.json`, [
          `${t.root}/proj/.github/hooks`,
          `${t.root}/proj/.github`,
        ]],
        ["copilot", [], `${t.root}/home/.copilot/settings.json`, [`${t.root}/home/.copilot`]],
      ] as const;
      for (const [host, scope, file, folders] of cases) {
        const what = `${host} ${scope.join(" ")}`;
        // No launcher on PATH: refused, nothing written (a missing program would block every tool call).
        const refused = await runCli(["install", host, ...scope], { env: { ...t.env, PATH: "/usr/bin:/bin" } });
        assertEquals(refused.code, 1, what);
        assertStringIncludes(
          refused.stderr,
          `"mind-hooks" is not on PATH, so ${host === "gemini" ? "Gemini CLI" : "Copilot CLI"} could not start`,
        );
        assertEquals(await exists(folders.at(-1)!), false, `${what}: a folder was created`);

        const dry = await runCli(["install", host, ...scope, "--dry-run"], { env: t.env });
        assertEquals(dry.code, 0, dry.stderr);
        assert(dry.stdout.startsWith(`--- /dev/null\n+++ ${file}\n`), dry.stdout);
        assertEquals(await exists(file), false, `${what}: dry-run wrote`);

        const inst = await runCli(["install", host, ...scope], { env: t.env });
        assertEquals(inst.code, 0, inst.stderr);
        const names = host === "gemini"
          ? "SessionStart, SessionEnd, BeforeAgent, BeforeTool, AfterTool, AfterAgent, Notification"
          : "SessionStart, SessionEnd, UserPromptSubmit, PreToolUse, permissionRequest, PostToolUse, PostToolUseFailure, PreCompact, SubagentStart, SubagentStop, Stop, Notification";
        assertStringIncludes(
          inst.stdout,
          `${file}: ${host === "gemini" ? "Gemini CLI" : "Copilot CLI"} now delegates ${names}`,
        );
        assertStringIncludes(inst.stdout, "mind hooks still need their own trust: run mind-hooks review.");
        assert(await exists(file), what);
        const again = await runCli(["install", host, ...scope], { env: t.env });
        assertStringIncludes(again.stdout, "already delegates to mind-hooks; nothing changed");

        const un = await runCli(["install", host, ...scope, "--uninstall"], { env: t.env });
        assertEquals(un.code, 0, un.stderr);
        assertStringIncludes(
          un.stdout,
          folders.length === 1
            ? `deleted, and so was the empty folder ${folders[0]}`
            : `deleted, and so were the empty folders ${folders.join(", ")}`,
        );
        for (const f of folders) assertEquals(await exists(f), false, `${what}: ${f} left behind`);
      }
      // A .github folder holding other files stays; so does a folder named by COPILOT_HOME.
      await Deno.mkdir(`${t.root}/proj/.github/workflows`, { recursive: true });
      const opts = { env: t.env };
      assertEquals((await runCli(["install", "copilot", "--project", `${t.root}/proj`], opts)).code, 0);
      assertEquals((await runCli(["install", "copilot", "--project", `${t.root}/proj`, "--uninstall"], opts)).code, 0);
      assertEquals(
        [await exists(`${t.root}/proj/.github/hooks`), await exists(`${t.root}/proj/.github/workflows`)],
        [false, true],
      );
      const copilotHome = `${t.root}/copilot-home`;
      await Deno.mkdir(copilotHome);
      const named = { env: { ...t.env, COPILOT_HOME: copilotHome } };
      const ci = await runCli(["install", "copilot"], named);
      assert(ci.stdout.startsWith(`${copilotHome}/settings.json: Copilot CLI now delegates`), ci.stdout);
      assertEquals((await runCli(["install", "copilot", "--uninstall"], named)).code, 0);
      assertEquals([await exists(copilotHome), await exists(`${copilotHome}/settings.json`)], [true, false]);
      // GEMINI_CLI_HOME stands in for the home folder.
      const geminiHome = `${t.root}/gemini-home`;
      await Deno.mkdir(geminiHome);
      const gi = await runCli(["install", "gemini"], { env: { ...t.env, GEMINI_CLI_HOME: geminiHome } });
      assert(gi.stdout.startsWith(`${geminiHome}/.gemini/settings.json: Gemini CLI now delegates`), gi.stdout);
      for (const host of ["gemini", "copilot"]) {
        const local = await runCli(["install", host, "--local"], { env: t.env, cwd: `${t.root}/proj` });
        assertEquals(local.code, 1);
        assert(
          local.stderr.startsWith("mind-hooks: --local is for claude (.claude/settings.local.json)"),
          local.stderr,
        );
      }
    } finally {
      await t.cleanup();
    }
  },
});

Deno.test("install plan, every host: the setting before the inserted hooks keeps its layout (uninstall is byte-exact)", () => {
  // jsonc-parser re-formats the property its insertion follows: an inline array became a multi-line one.
  const text = `{\n  "model": "m", // mine\n  "trusted_folders": ["/src", "/lib"]\n}\n`;
  const withHooks = `{\n  "hooks": {\n    "Custom": [{ "hooks": [] }]\n  }\n}\n`;
  for (const host of ["claude", "codex", "gemini", "copilot"] as const) {
    for (const before of [text, withHooks]) {
      const plan = planEdit(host, before, { launcher: "mind-hooks", uninstall: false, file: "f" });
      assert(plan.text!.startsWith(before.slice(0, before.lastIndexOf("]") + 1)), `${host}: ${plan.text}`);
      const back = planEdit(host, plan.text, { launcher: "mind-hooks", uninstall: true, file: "f" });
      assertEquals(back.text, before, host);
    }
  }
});
