/**
 * SPEC §2.8 (r3): a nested foreign folder never hides the project around it. The root is the nearest
 * ancestor holding `.mind/`; else, inside a git repository, the outermost ancestor holding `.claude/` or
 * `.codex/` not above the repository's top; else the nearest one holding them. Every `.claude/`/`.codex/`
 * from the root down to the cwd loads under the root's one trust; one above a `.mind/` root whose files
 * hold hooks is reported (`W_ABOVE_ROOT`). Before r3 an empty `vendor/lib/.claude/` (or one Claude Code
 * wrote with permissions only) made `vendor/lib` the root: the enclosing project's guard neither ran
 * nor was mentioned.
 */
import { join } from "node:path";
import { assertEquals } from "./helpers/assert.ts";
import {
  cmd,
  echoHook,
  event,
  group,
  type Json,
  makeHome,
  runCli,
  sessionId,
  trustAll,
  trustProject,
  writeHooksJson,
} from "./helpers/cli.ts";
import { dispatchEveryPath } from "./helpers/every_path.ts";

const DENY = {
  hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "guarded" },
};
const context = (text: string) => ({ hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: text } });
const guard = (output: Json) => ({ PreToolUse: [group([cmd(echoHook(output))], "Bash")] });
const bash = (cwd: string) =>
  event("PreToolUse", { cwd, tool_name: "Bash", tool_input: { command: "ls" }, session_id: sessionId("nest") });

async function tree(): Promise<{ root: string; [Symbol.asyncDispose](): Promise<void> }> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "mind-hooks-nested-" }));
  return { root, [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }).catch(() => {}) };
}

async function write(path: string, data: Json): Promise<void> {
  await Deno.mkdir(join(path, ".."), { recursive: true });
  await Deno.writeTextFile(path, JSON.stringify(data));
}

Deno.test("nested foreign: an empty or permissions-only vendor/lib/.claude/ never makes vendor/lib the root", async () => {
  await using home = await makeHome();
  await using t = await tree();
  const repo = join(t.root, "repo");
  await writeHooksJson(join(repo, ".mind"), guard(DENY));
  const lib = join(repo, "vendor", "lib");
  await Deno.mkdir(join(lib, ".claude"), { recursive: true });
  await trustProject(home.path, repo);
  const key = `project:${repo}/.mind/hooks.json:PreToolUse:0:0`;
  for (const variant of ["empty", "permissions only"]) {
    if (variant !== "empty") {
      await write(join(lib, ".claude", "settings.json"), { permissions: { allow: ["Bash(ls)"] } });
    }
    const all = await dispatchEveryPath({ args: ["--home", home.path], input: bash(lib) });
    for (const [path, r] of Object.entries(all)) {
      assertEquals([variant, path, r.decision, r.runs.map((x) => [x.key, x.status])], [
        variant,
        path,
        "deny",
        [[key, "blocked"]],
      ]);
      assertEquals(r, all.cli, `${path} differs`);
    }
  }
  const status = await runCli(["project", "status", lib, "--home", home.path]);
  assertEquals(status.stdout.trim(), `${repo}: trusted`);
});

Deno.test("nested foreign: in a git repository the outermost .claude/ up to the top is the root; the nested one adds hooks", async () => {
  await using home = await makeHome();
  await using t = await tree();
  // A workspace with its own .claude/ (Claude Code's, from a session started there) above a repository.
  await write(join(t.root, ".claude", "settings.json"), { hooks: guard(context("workspace")) });
  const repo = join(t.root, "repo");
  await Deno.mkdir(join(repo, ".git"), { recursive: true });
  await write(join(repo, ".claude", "settings.json"), { hooks: guard(DENY) });
  const lib = join(repo, "vendor", "lib");
  await write(join(lib, ".claude", "settings.json"), { permissions: { allow: [] }, hooks: guard(context("lib")) });
  await write(join(lib, ".codex", "hooks.json"), { hooks: guard(context("lib-codex")) });
  const cwd = join(lib, "src");
  await Deno.mkdir(cwd);

  const status = await runCli(["project", "status", cwd, "--home", home.path]);
  assertEquals(status.stdout.trim(), `${repo}: not trusted (run: mind-hooks project trust ${repo})`);
  assertEquals((await runCli(["project", "trust", repo, "--home", home.path])).code, 0);
  const keys = [
    `claude-project:${repo}/.claude/settings.json:PreToolUse:0:0`,
    `claude-project:${lib}/.claude/settings.json:PreToolUse:0:0`,
    `codex-project:${lib}/.codex/hooks.json:PreToolUse:0:0`,
  ];
  // Before trust of the hooks: every one is named, none runs.
  const untrusted = await dispatchEveryPath({ args: ["--home", home.path], input: bash(cwd) }, ["cli"]);
  assertEquals(untrusted.cli.runs.map((r) => [r.key, r.reason]), keys.map((k) => [k, "untrusted"]));
  await trustAll(home.path, cwd);
  const all = await dispatchEveryPath({ args: ["--home", home.path], input: bash(cwd) });
  for (const [path, r] of Object.entries(all)) {
    assertEquals([path, r.decision, r.additionalContext, r.runs.map((x) => x.key)], [
      path,
      "deny",
      ["lib", "lib-codex"],
      keys,
    ]);
    assertEquals(r, all.cli, `${path} differs`);
  }
  // Outside the repository, the workspace's .claude/ is its own project (and never the repository's).
  const outside = await runCli(["project", "status", t.root, "--home", home.path]);
  assertEquals(outside.stdout.trim(), `${t.root}: not trusted (run: mind-hooks project trust ${t.root})`);
});

Deno.test("nested foreign: a .claude/ with hooks above a .mind/ root is not loaded and is reported (W_ABOVE_ROOT)", async () => {
  await using home = await makeHome();
  await using t = await tree();
  await write(join(t.root, ".claude", "settings.json"), { hooks: guard(context("above")) });
  await write(join(t.root, "plain", ".codex", "config.json"), {}); // no hooks file: not worth a word
  const repo = join(t.root, "plain", "repo");
  await writeHooksJson(join(repo, ".mind"), guard(context("repo")));
  await trustProject(home.path, repo);
  const all = await dispatchEveryPath({ args: ["--home", home.path], input: bash(repo) });
  for (const [path, r] of Object.entries(all)) {
    assertEquals([path, r.additionalContext, r.warnings.map((w) => [w.code, w.message, w.source])], [path, ["repo"], [[
      "W_ABOVE_ROOT",
      `${t.root}/.claude holds hooks but is above the project root ${repo}, whose .mind/ decides: its hooks are not loaded`,
      `${t.root}/.claude`,
    ]]]);
  }
  const list = await runCli(["list", "--json", "--home", home.path, "--cwd", repo]);
  assertEquals(list.json().warnings.map((w: { code: string }) => w.code), ["W_ABOVE_ROOT"]);
});

Deno.test("nested foreign: outside a git repository the nearest .claude/ is the root", async () => {
  await using home = await makeHome();
  await using t = await tree();
  await write(join(t.root, ".claude", "settings.json"), { hooks: guard(context("outer")) });
  const inner = join(t.root, "inner");
  await write(join(inner, ".claude", "settings.json"), { hooks: guard(context("inner")) });
  const status = await runCli(["project", "status", inner, "--home", home.path]);
  assertEquals(status.stdout.trim(), `${inner}: not trusted (run: mind-hooks project trust ${inner})`);
});
