/**
 * Claude Code's `if` permission rules (SPEC §2.2), the pure matcher: rule parsing, Bash command splitting,
 * wildcards and file globs. Each decision here that Claude Code's CLI can show is also checked against it
 * in tests/interop/claude_dialect.ts.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import {
  bashRuleMatches,
  fileRuleMatches,
  gitignoreMatches,
  parsePermissionRule,
  ruleMatchesToolCall,
} from "../src/matching/permission_rule.ts";
import { simpleCommands } from "../src/matching/bash_split.ts";
import { wildcardMatches } from "../src/matching/wildcard.ts";

const bash = (rule: string, command: string) =>
  ruleMatchesToolCall(rule, { toolName: "Bash", toolInput: { command }, cwd: "/repo" });
const file = (rule: string, toolName: string, file_path: string) =>
  ruleMatchesToolCall(rule, { toolName, toolInput: { file_path }, cwd: "/repo", home: "/home/u" });

Deno.test("parse: Tool, Tool(), Tool(*), escaped parentheses, legacy tool names", () => {
  assertEquals(parsePermissionRule("Bash"), { toolName: "Bash" });
  assertEquals(parsePermissionRule("Bash()"), { toolName: "Bash" });
  assertEquals(parsePermissionRule("Bash(*)"), { toolName: "Bash" });
  assertEquals(parsePermissionRule("Bash(git commit*)"), { toolName: "Bash", content: "git commit*" });
  assertEquals(parsePermissionRule("Bash(echo \\(x\\))"), { toolName: "Bash", content: "echo (x)" });
  assertEquals(parsePermissionRule("Task(explore)"), { toolName: "Agent", content: "explore" });
  assertEquals(parsePermissionRule("Bash(x) trailing"), { toolName: "Bash(x) trailing" });
});

Deno.test("tool names: the rule's tool must be the call's tool or one of its aliases", () => {
  assertEquals(bash("Bash", "ls"), true);
  assertEquals(bash("Edit", "ls"), false);
  assertEquals(file("Edit(*.ts)", "Write", "/repo/a.ts"), false);
  // mind's aliases (SPEC §4): an Edit rule sees the files an apply_patch touches.
  const patch = "*** Begin Patch\n*** Update File: src/a.ts\n@@\n-x\n+y\n*** End Patch";
  assertEquals(
    ruleMatchesToolCall("Edit(src/**)", { toolName: "apply_patch", toolInput: { command: patch }, cwd: "/repo" }),
    true,
  );
  assertEquals(
    ruleMatchesToolCall("Edit(*.md)", { toolName: "apply_patch", toolInput: { command: patch }, cwd: "/repo" }),
    false,
  );
  // Content rules on tools without a matcher never match (Claude Code: WebFetch, MCP tools).
  assertEquals(
    ruleMatchesToolCall("WebFetch(domain:example.com)", {
      toolName: "WebFetch",
      toolInput: { url: "https://example.com" },
      cwd: "/",
    }),
    false,
  );
});

Deno.test("Bash: simple commands, prefix and wildcard rules", () => {
  assertEquals(simpleCommands(`cd repo && FOO=bar git push origin main > out.txt 2>&1; echo 'a b' | grep x`), [
    "cd repo",
    "git push origin main",
    "echo a b",
    "grep x",
  ]);
  assertEquals(simpleCommands("echo $(date)"), null);
  assertEquals(simpleCommands(`echo "unterminated`), null);
  assertEquals(bash("Bash(git *)", "git"), true);
  assertEquals(bash("Bash(git *)", "gitk"), false);
  assertEquals(bash("Bash(git *)", "ls && git status"), true);
  assertEquals(bash("Bash(git commit*)", "git commit -m 'fix (x)'"), true);
  assertEquals(bash("Bash(npm run test:*)", "npm run test"), true);
  assertEquals(bash("Bash(npm run test:*)", "npm run test:unit"), false);
  assertEquals(bash("Bash(npm:*)", "xargs npm install"), true);
  assertEquals(bash("Bash(rm -rf *)", "ls"), false);
  assertEquals(bash("Bash(git *)", `echo "git push"`), false);
  // Too complex to split statically: the hook runs.
  assertEquals(bash("Bash(git *)", "echo `date`"), true);
  assertEquals(bashRuleMatches("echo  hello*", "echo   hello world"), true);
});

Deno.test("wildcards: * spans anything, \\* is a star, a single trailing ' *' also matches nothing", () => {
  assertEquals(wildcardMatches("a*b*c", "axxbyyc", false), true);
  assertEquals(wildcardMatches("a*b*c", "axxbyy", false), false);
  assertEquals(wildcardMatches("a\\*b", "a*b", false), true);
  assertEquals(wildcardMatches("a\\*b", "axb", false), false);
  assertEquals(wildcardMatches("ls *", "ls", false), true);
  assertEquals(wildcardMatches("ls * *", "ls", false), false);
  assertEquals(wildcardMatches("src/**/x.ts", "src/x.ts", false), true);
  assertEquals(wildcardMatches("src/**/x.ts", "src/a/b/x.ts", false), true);
});

Deno.test("files: gitignore rules relative to the cwd, anchors //, ~/, and whole-path wildcards", () => {
  assertEquals(gitignoreMatches("*.ts", "src/a.ts"), true);
  assertEquals(gitignoreMatches("src/*.ts", "lib/src/a.ts"), false);
  assertEquals(gitignoreMatches("src", "src/a/b.ts"), true);
  assertEquals(gitignoreMatches("build/", "build"), false);
  assertEquals(gitignoreMatches("build/", "build/x.js"), true);
  assertEquals(gitignoreMatches("**/x.ts", "a/b/x.ts"), true);
  assertEquals(file("Edit(*.ts)", "Edit", "/repo/src/a.ts"), true);
  assertEquals(file("Edit(src/**)", "Edit", "/repo/src/deep/a.js"), true);
  assertEquals(file("Edit(src/**)", "Edit", "/repo/lib/a.js"), false);
  assertEquals(file("Read(//etc/*)", "Read", "/etc/passwd"), true);
  assertEquals(file("Read(~/.ssh/*)", "Read", "/home/u/.ssh/id_rsa"), true);
  assertEquals(file("Write(./docs/*.md)", "Write", "docs/a.md"), true);
  assertEquals(fileRuleMatches("/repo/a.ts", "/repo/a.ts", "/repo"), true);
});

Deno.test("the matcher is linear: a long rule against a long command stays fast", () => {
  const rule = "*a".repeat(200) + "b";
  const text = "a".repeat(10_000);
  const t0 = performance.now();
  assertEquals(wildcardMatches(rule, text, false), false);
  const ms = performance.now() - t0;
  assert(ms < 5000, `took ${ms} ms`);
});
