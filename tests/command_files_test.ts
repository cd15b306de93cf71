/**
 * The command tokeniser (SPEC §3.5) over real hook command lines: each case is a command as
 * published (the source is named beside it: repository and file at the commit read, or the seed),
 * the files of that repository the command could reach, and the whole outcome — which of those
 * files the scan finds (in order) and whether it fetches from the network. A few constructed cases
 * at the end cover shell forms the collections use rarely (marked as constructed).
 *
 * Roots: `/r` for a project, `/p` for a plugin, unless a case gives its own; the home is `/home/u`.
 */
import { assertEquals } from "./helpers/assert.ts";
import { MAX_NESTING, readCommand, rootVariables } from "../src/trust/command_files.ts";
import type { ReadContext } from "../src/shell/shell_reader.ts";

type Case = {
  /** Where the command line comes from. */
  source: string;
  command: string;
  kind?: "project" | "plugin";
  root?: string;
  /** Files that exist under the root (relative). */
  files: string[];
  /** The files the scan finds, in order. */
  pinned: string[];
  fetch?: string | null;
  /** The construct that makes it unpinnable (SPEC §3.5 r3), when one does. */
  unpinnable?: string | null;
};

const HOME = "/home/u";

/** Lexical normalization of an absolute POSIX path (`.` and `..` segments). */
function normalize(path: string): string {
  const out: string[] = [];
  for (const seg of path.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") out.pop();
    else out.push(seg);
  }
  return "/" + out.join("/");
}

/** A reading context over a case's files (no folders, no package.json): the root as cwd, PATH outside it. */
function context(root: string, kind: "project" | "plugin"): ReadContext {
  return {
    root,
    cwd: root,
    vars: rootVariables(kind, root),
    home: HOME,
    env: { PATH: "/usr/local/bin:/usr/bin:/bin" },
    fs: { list: () => null, readText: () => null },
  };
}

/** What the reading of `c` finds among the case's files. */
function outcome(c: Case): { pinned: string[]; fetch: string | null; unpinnable: string | null } {
  const kind = c.kind ?? "project";
  const root = c.root ?? (kind === "project" ? "/r" : "/p");
  const scan = readCommand(c.command, context(root, kind));
  const files = new Set(c.files);
  const pinned: string[] = [];
  for (const p of scan.files) {
    const n = normalize(p);
    if (!n.startsWith(root + "/")) continue;
    const rel = n.slice(root.length + 1);
    if (files.has(rel) && !pinned.includes(rel)) pinned.push(rel);
  }
  return { pinned, fetch: scan.fetch, unpinnable: scan.unpinnable };
}

const CASES: Case[] = [
  // The seeds.
  {
    source: "seed 000 (hooks.json example)",
    command: "python scripts/check_tool.py",
    files: ["scripts/check_tool.py", "scripts/audit_tool.py"],
    pinned: ["scripts/check_tool.py"],
  },
  {
    source: "seed 000 (commandWindows)",
    command: "py scripts/check_tool.py",
    files: ["scripts/check_tool.py"],
    pinned: ["scripts/check_tool.py"],
  },
  {
    source: "seed 000 (async handler)",
    command: "python scripts/audit_tool.py",
    files: ["scripts/check_tool.py", "scripts/audit_tool.py"],
    pinned: ["scripts/audit_tool.py"],
  },
  {
    source: "seed 003 (user hooks.json): a user-level script, outside the project",
    command: "python3 ~/.codex/hooks/session_start.py",
    files: [".codex/hooks/session_start.py"],
    pinned: [],
  },
  {
    source: "seed 003 (repository hooks.json)",
    command: '/usr/bin/python3 "$(git rev-parse --show-toplevel)/.codex/hooks/pre_tool_use_policy.py"',
    files: [".codex/hooks/pre_tool_use_policy.py", ".codex/hooks/session_start.py"],
    pinned: [".codex/hooks/pre_tool_use_policy.py"],
  },
  {
    source: "seed 003 (repository hooks.json)",
    command: '/usr/bin/python3 "$(git rev-parse --show-toplevel)/.codex/hooks/permission_request.py"',
    files: [".codex/hooks/permission_request.py"],
    pinned: [".codex/hooks/permission_request.py"],
  },
  {
    source: "seed 003 (repository hooks.json)",
    command: '/usr/bin/python3 "$(git rev-parse --show-toplevel)/.codex/hooks/user_prompt_submit_data_flywheel.py"',
    files: [".codex/hooks/user_prompt_submit_data_flywheel.py"],
    pinned: [".codex/hooks/user_prompt_submit_data_flywheel.py"],
  },
  {
    source: "seed 003 (config.toml, a TOML literal string)",
    command: '/usr/bin/python3 "$(git rev-parse --show-toplevel)/.codex/hooks/session_start.py"',
    files: [".codex/hooks/session_start.py"],
    pinned: [".codex/hooks/session_start.py"],
  },
  {
    source: "seed 003 (managed requirements.toml): an administrator's path",
    command: "python3 /enterprise/hooks/pre_tool_use_policy.py",
    files: ["enterprise/hooks/pre_tool_use_policy.py"],
    pinned: [],
  },
  {
    source: "seed 003 (managed command_windows)",
    command: "py -3 C:\\enterprise\\hooks\\pre_tool_use_policy.py",
    files: [],
    pinned: [],
  },
  // Real Claude Code plugins (vendored unchanged on the claude branch, fixtures/thirdparty/).
  {
    source: "obra/superpowers@44c9b2d hooks/hooks.json",
    command: '"${CLAUDE_PLUGIN_ROOT}/hooks/run-hook.cmd" session-start',
    kind: "plugin",
    files: ["hooks/run-hook.cmd", "hooks/session-start"],
    pinned: ["hooks/run-hook.cmd"],
  },
  {
    source: "anthropics/claude-plugins-official@340e33a plugins/ralph-loop/hooks/hooks.json",
    command: 'bash "${CLAUDE_PLUGIN_ROOT}/hooks/stop-hook.sh"',
    kind: "plugin",
    files: ["hooks/stop-hook.sh"],
    pinned: ["hooks/stop-hook.sh"],
  },
  {
    source: "anthropics/claude-plugins-official@340e33a plugins/ralph-loop/README.md (Git Bash on Windows)",
    command: '"C:/Program Files/Git/bin/bash.exe" ${CLAUDE_PLUGIN_ROOT}/hooks/stop-hook.sh',
    kind: "plugin",
    files: ["hooks/stop-hook.sh"],
    pinned: ["hooks/stop-hook.sh"],
  },
  {
    source: "anthropics/claude-plugins-official@340e33a plugins/explanatory-output-style/hooks/hooks.json",
    command: 'bash "${CLAUDE_PLUGIN_ROOT}/hooks-handlers/session-start.sh"',
    kind: "plugin",
    files: ["hooks-handlers/session-start.sh"],
    pinned: ["hooks-handlers/session-start.sh"],
  },
  {
    source: "anthropics/claude-plugins-official@340e33a plugins/hookify/hooks/hooks.json",
    command: 'python3 "${CLAUDE_PLUGIN_ROOT}/hooks/pretooluse.py"',
    kind: "plugin",
    files: ["hooks/pretooluse.py", "core/rule_engine.py"],
    pinned: ["hooks/pretooluse.py"],
  },
  {
    source: "karanb192/claude-code-hooks@811aeb7 plugins/block-dangerous-commands/hooks/hooks.json",
    command: 'node "${CLAUDE_PLUGIN_ROOT}/block-dangerous-commands.js"',
    kind: "plugin",
    files: ["block-dangerous-commands.js"],
    pinned: ["block-dangerous-commands.js"],
  },
  {
    source: "karanb192/claude-code-hooks@811aeb7 block-dangerous-commands.js (usage comment)",
    command: "HOOK_ASK_STRICT=true node /path/to/block-dangerous-commands.js",
    kind: "plugin",
    files: ["block-dangerous-commands.js"],
    pinned: [],
  },
  // Public repositories' project hooks.
  {
    source: "disler/claude-code-hooks-mastery@144d4e9 .claude/settings.json",
    command: "uv run .claude/hooks/pre_tool_use.py",
    files: [".claude/hooks/pre_tool_use.py", ".claude/hooks/utils/llm.py"],
    pinned: [".claude/hooks/pre_tool_use.py"],
  },
  {
    source: "disler/claude-code-hooks-mastery@144d4e9 .claude/settings.json",
    command: "uv run .claude/hooks/user_prompt_submit.py --log-only --store-last-prompt --name-agent",
    files: [".claude/hooks/user_prompt_submit.py"],
    pinned: [".claude/hooks/user_prompt_submit.py"],
  },
  {
    source: "disler/claude-code-hooks-mastery@144d4e9 .claude/settings.json",
    command: "uv run .claude/hooks/stop.py --chat",
    files: [".claude/hooks/stop.py", "run"],
    // `run` is uv's subcommand, not a file (round 2 pinned a root file of that name as a harmless extra).
    pinned: [".claude/hooks/stop.py"],
  },
  {
    source: "disler/claude-code-hooks-multi-agent-observability@04ecbc1 .claude/settings.json",
    command: "uv run --no-project --python python3 $CLAUDE_PROJECT_DIR/.claude/hooks/pre_tool_use.py",
    files: [".claude/hooks/pre_tool_use.py"],
    pinned: [".claude/hooks/pre_tool_use.py"],
  },
  {
    source: "disler/claude-code-hooks-multi-agent-observability@04ecbc1 .claude/settings.json",
    command:
      "uv run --no-project --python python3 $CLAUDE_PROJECT_DIR/.claude/hooks/send_event.py --source-app __SOURCE_APP__ --event-type PreToolUse --server-url http://172.30.0.1:4000/events",
    files: [".claude/hooks/send_event.py"],
    pinned: [".claude/hooks/send_event.py"],
    fetch: "a URL",
  },
  {
    source: "bibito-/claude-workflow-kit@58e392c .claude/settings.json",
    command: 'node "$CLAUDE_PROJECT_DIR/.claude/hooks/guard-rm-rf.js"',
    files: [".claude/hooks/guard-rm-rf.js"],
    pinned: [".claude/hooks/guard-rm-rf.js"],
  },
  {
    source: "bibito-/claude-workflow-kit@58e392c .claude/settings.json",
    command: 'node "$CLAUDE_PROJECT_DIR/.claude/hooks/guard-kit-push-verdict.cjs"',
    files: [".claude/hooks/guard-kit-push-verdict.cjs"],
    pinned: [".claude/hooks/guard-kit-push-verdict.cjs"],
  },
  {
    source: "biandeshen/claude-code-init@252616e .claude/settings.json",
    command: "bash .claude/hooks/smart-context.sh",
    files: [".claude/hooks/smart-context.sh"],
    pinned: [".claude/hooks/smart-context.sh"],
  },
  {
    source: "1Password/1password-claude-plugin@036546d hooks/hooks.json",
    command: '"${CLAUDE_PLUGIN_ROOT}"/scripts/validate-mounted-env-files.sh',
    kind: "plugin",
    files: ["scripts/validate-mounted-env-files.sh"],
    pinned: ["scripts/validate-mounted-env-files.sh"],
  },
  {
    source: "1Password/agent-hooks@f9d7557 hooks/hooks.json",
    command: '"${CLAUDE_PLUGIN_ROOT}"/bin/run-hook.sh 1password-validate-mounted-env-files',
    kind: "plugin",
    files: ["bin/run-hook.sh"],
    pinned: ["bin/run-hook.sh"],
  },
  {
    source: "0xDarkMatter/claude-mods@9710979 hooks/hooks.json",
    command: 'bash "${CLAUDE_PLUGIN_ROOT}/hooks/pre-write-peer-guard.sh"',
    kind: "plugin",
    files: ["hooks/pre-write-peer-guard.sh"],
    pinned: ["hooks/pre-write-peer-guard.sh"],
  },
  {
    source: "0x1337c0d3/claude-security@5a2a61c hooks/hooks.json",
    command:
      'uv run "${CLAUDE_PLUGIN_ROOT}"/skills/prompt-injection-defender/hooks/defender-python/post-tool-defender.py',
    kind: "plugin",
    files: ["skills/prompt-injection-defender/hooks/defender-python/post-tool-defender.py"],
    pinned: ["skills/prompt-injection-defender/hooks/defender-python/post-tool-defender.py"],
  },
  {
    source: "0xrdan/claude-router@30e3ee2 hooks/hooks.json",
    command: "${CLAUDE_PLUGIN_ROOT}/hooks/classify-prompt.py",
    kind: "plugin",
    files: ["hooks/classify-prompt.py"],
    pinned: ["hooks/classify-prompt.py"],
  },
  {
    source: "0xtechdean/claude-code-mem0@164c269 hooks/hooks.json",
    command: "python3 ${CLAUDE_PLUGIN_ROOT}/hooks/userpromptsubmit.py",
    kind: "plugin",
    files: ["hooks/userpromptsubmit.py"],
    pinned: ["hooks/userpromptsubmit.py"],
  },
  {
    source: "13W/local-rag@ace4430 hooks/hooks.json (an unknown variable expands to nothing, as an unset one does)",
    command: 'node "${extensionPath}${CLAUDE_PLUGIN_ROOT}/hooks/session-start.mjs"',
    kind: "plugin",
    files: ["hooks/session-start.mjs"],
    pinned: ["hooks/session-start.mjs"],
    // r3: an unknown variable inside the script's path: what it holds where it runs nobody can tell.
    unpinnable: "${extensionPath}",
  },
  {
    source: "0x7067/claude-hashline@0b81ff0 hooks/hooks.json",
    command: 'bun "${CLAUDE_PLUGIN_ROOT}/hooks/scripts/block-edit.ts"',
    kind: "plugin",
    files: ["hooks/scripts/block-edit.ts"],
    pinned: ["hooks/scripts/block-edit.ts"],
  },
  {
    source: "0xmariowu/harness-health@101c53b hooks/hooks.json (an inline script: no file)",
    command:
      'missing=\'\'; command -v jq >/dev/null 2>&1 || missing="$missing jq"; command -v node >/dev/null 2>&1 || missing="$missing node"; if [ -n "$missing" ]; then echo "[AgentLint] Missing:$missing — install before running /al"; else echo \'AgentLint ready\'; fi',
    kind: "plugin",
    // `command -v jq` names a program on PATH, not a file.
    files: ["hooks/hooks.json", "jq", "node"],
    pinned: [],
  },
  {
    source: "0K-cool/vex-talon@4bb5e02 hooks/hooks.json",
    command: "bun run ${CLAUDE_PLUGIN_ROOT}/packages/core/src/hooks/L0-secure-code-enforcer.ts",
    kind: "plugin",
    files: ["packages/core/src/hooks/L0-secure-code-enforcer.ts"],
    pinned: ["packages/core/src/hooks/L0-secure-code-enforcer.ts"],
  },
  {
    source: "10CG/aria-plugin@494b2f8 hooks/hooks.json",
    command: "bash ${CLAUDE_PLUGIN_ROOT}/hooks/session-start-check.sh",
    kind: "plugin",
    files: ["hooks/session-start-check.sh"],
    pinned: ["hooks/session-start-check.sh"],
  },
  {
    source: "0xhimanshu/governor@0c5ec26 hooks/hooks.json",
    command: 'python3 "${CLAUDE_PLUGIN_ROOT}/scripts/governor.py" hook session-start',
    kind: "plugin",
    files: ["scripts/governor.py"],
    pinned: ["scripts/governor.py"],
  },
  {
    source: "1kgofpastaeveryday/claude-subconscious@2d71f1c hooks/hooks.json",
    command: 'node "${CLAUDE_PLUGIN_ROOT}/hooks/silent-npx.cjs" tsx "${CLAUDE_PLUGIN_ROOT}/scripts/session_start.ts"',
    kind: "plugin",
    files: ["hooks/silent-npx.cjs", "scripts/session_start.ts", "scripts/sync_letta_memory.ts"],
    pinned: ["hooks/silent-npx.cjs", "scripts/session_start.ts"],
  },
  {
    source: "0xcnr0/claude-token-economy@90f8096 hooks/hooks.json",
    command: 'node "${CLAUDE_PLUGIN_ROOT}/packages/core/bin/treats.js" hook session-start',
    kind: "plugin",
    files: ["packages/core/bin/treats.js"],
    pinned: ["packages/core/bin/treats.js"],
  },
  {
    source: "45ck/prompt-language@3e47d78 .codex/hooks.json (CODEX_PLUGIN_ROOT is no variable of mind's)",
    command: "node ${CODEX_PLUGIN_ROOT}/dist/presentation/hooks/codex-user-prompt-submit.js",
    kind: "plugin",
    files: ["dist/presentation/hooks/codex-user-prompt-submit.js"],
    pinned: [],
    unpinnable: "${CODEX_PLUGIN_ROOT}",
  },
  {
    source: "0xjgv/harness@c730b1b .codex/hooks.json",
    command: 'cd "$(git rev-parse --show-toplevel)" && .codex/hooks/codex-stop-hook.sh make -s stop-hook',
    files: [".codex/hooks/codex-stop-hook.sh", "Makefile"],
    pinned: [".codex/hooks/codex-stop-hook.sh"],
  },
  {
    source: "1nf3rn0-H/agent-runtime-security@1176bce .codex/hooks.json (absolute paths into the project)",
    command:
      "/usr/bin/python3 /Users/harshmehta/Desktop/Projects/AiDR/.aidr/codex_hook.py --rules /Users/harshmehta/Desktop/Projects/AiDR/.aidr/rules.json",
    root: "/Users/harshmehta/Desktop/Projects/AiDR",
    files: [".aidr/codex_hook.py", ".aidr/rules.json"],
    pinned: [".aidr/codex_hook.py", ".aidr/rules.json"],
  },
  {
    source: "1iveowl/PlatformPlatform@b7e3a78 .codex/hooks.json (a single-quoted absolute path)",
    command: "'/Users/jasperbojsen/GitHub/pp-workspace/PlatformPlatform/.codex/hooks/pre-tool-use-bash.sh'",
    root: "/Users/jasperbojsen/GitHub/pp-workspace/PlatformPlatform",
    files: [".codex/hooks/pre-tool-use-bash.sh"],
    pinned: [".codex/hooks/pre-tool-use-bash.sh"],
  },
  {
    source: "0xHoneyJar/loa-constructs@b1ecb1c .codex/hooks.json",
    command: ".claude/scripts/cleanup-context.sh --prompt",
    files: [".claude/scripts/cleanup-context.sh"],
    pinned: [".claude/scripts/cleanup-context.sh"],
  },
  {
    source: "5uck1ess/devkit@de6f981 .codex/hooks.json (the helper it runs is named by a bare word)",
    command: 'bash "$(git rev-parse --show-toplevel)/hooks/codex-hook.sh" safety-check.sh',
    files: ["hooks/codex-hook.sh", "hooks/safety-check.sh"],
    pinned: ["hooks/codex-hook.sh"],
  },
  {
    source: "3rd-Eden/sumo@c609685 .codex/hooks.json (a program on PATH, and a comment)",
    command: "sumo forward codex SessionStart # sumo-managed:codex",
    files: ["sumo-managed:codex"],
    pinned: [],
    unpinnable: "sumo (a program the reader does not know)",
  },
  {
    source: "0maru/gh-zen@014ce8e .codex/hooks.json",
    command: '"$(git rev-parse --show-toplevel)/scripts/agent-go-check.sh"',
    files: ["scripts/agent-go-check.sh", "scripts/agent-stop-gate.sh"],
    pinned: ["scripts/agent-go-check.sh"],
  },
  {
    source: "2000silpeed/cc-harness@1a7d465 .codex/hooks.json",
    command: 'node "$(git rev-parse --show-toplevel)/scripts/check-design-system.mjs" --hook',
    files: ["scripts/check-design-system.mjs"],
    pinned: ["scripts/check-design-system.mjs"],
  },
  {
    source: "392fyc/Mercury@16e4a79 .codex/hooks.json (a Codex hook running a .claude/ script)",
    command: 'bash "$(git rev-parse --show-toplevel)/.claude/hooks/scope-guard.sh"',
    files: [".claude/hooks/scope-guard.sh"],
    pinned: [".claude/hooks/scope-guard.sh"],
  },
  {
    source: "30eggis/walwal-harness@f99a771 .codex/hooks.json (a program outside the project)",
    command: "/Users/ted/.local/bin/graphify hook-check",
    files: ["hook-check"],
    pinned: ["hook-check"],
    unpinnable: "graphify (a program the reader does not know)",
  },
  {
    source: "0rl4nd0l/tenn@010357e .codex/hooks.json",
    command:
      'python3 "$(git rev-parse --show-toplevel)/scripts/agent_job_hook.py" --platform codex --event BeforeTool --repo-root "$(git rev-parse --show-toplevel)"',
    files: ["scripts/agent_job_hook.py"],
    pinned: ["scripts/agent_job_hook.py"],
  },
  {
    source: "Claude Code docs, hooks guide (the formatter example)",
    command: "jq -r '.tool_input.file_path' | xargs npx prettier --write",
    files: [".tool_input.file_path", "prettier"],
    pinned: [".tool_input.file_path", "prettier"],
    fetch: "npx",
    unpinnable: "npx (fetches the code it runs)",
  },
  {
    source: "@miyaoka/claude-hooks README (a package fetched at run time)",
    command: "bunx @miyaoka/claude-hooks",
    files: [],
    pinned: [],
    fetch: "bunx",
    unpinnable: "bunx (fetches the code it runs)",
  },
  {
    source: "a public README wiring ClawSentry (a hook that posts to a local server)",
    command: "curl -s -X POST http://localhost:9999/ahp/event -d @-",
    files: [],
    pinned: [],
    // It only sends the event; nothing it receives is run (issue 36: a send is not a fetch).
    fetch: null,
  },
  {
    source: "a public 'Advanced Hooks' README (.claude/settings.json example)",
    command: "uv run $CLAUDE_PROJECT_DIR/.claude/hooks/pre_tool_use.py || true",
    files: [".claude/hooks/pre_tool_use.py"],
    pinned: [".claude/hooks/pre_tool_use.py"],
  },
  {
    source: "a public hooks README (chaining a logger before the hook)",
    command:
      "uv run $CLAUDE_PROJECT_DIR/.claude/hooks/universal_hook_logger.py --event PreToolUse && uv run $CLAUDE_PROJECT_DIR/.claude/hooks/pre_tool_use.py || true",
    files: [".claude/hooks/pre_tool_use.py", ".claude/hooks/universal_hook_logger.py"],
    pinned: [".claude/hooks/universal_hook_logger.py", ".claude/hooks/pre_tool_use.py"],
  },
  // Constructed: shell forms the collections use rarely.
  {
    source: "constructed: cd into the hooks folder first",
    command: 'cd "$CLAUDE_PROJECT_DIR/.claude/hooks" && python3 check.py',
    files: [".claude/hooks/check.py", "check.py"],
    pinned: ["check.py", ".claude/hooks/check.py"],
  },
  {
    source: "constructed: sh -c and eval run command lines of their own",
    command: "sh -c 'python3 .mind/a.py' && eval \"node .mind/b.js\"",
    files: [".mind/a.py", ".mind/b.js"],
    pinned: [".mind/a.py", ".mind/b.js"],
  },
  {
    source: "constructed: an output redirection's file is written, an input redirection's read",
    command: "python3 .mind/x.py > .mind/log.txt 2>&1; sh < .mind/setup.sh 2>>.mind/err.log",
    files: [".mind/x.py", ".mind/log.txt", ".mind/setup.sh", ".mind/err.log"],
    pinned: [".mind/x.py", ".mind/setup.sh"],
  },
  {
    source: "constructed: assignments, --opt=value, ${VAR:-default}, $'…', backquotes and ~",
    command:
      "PYTHONPATH=.mind/lib python3 .mind/x.py --policy=.mind/policy.toml ${UNSET:-.mind/default.sh} $'.mind/q\\x'.py `cat .mind/list.txt` ~/repo/.mind/home.py",
    root: "/home/u/repo",
    files: [
      ".mind/lib",
      ".mind/x.py",
      ".mind/policy.toml",
      ".mind/default.sh",
      ".mind/q\\x.py",
      ".mind/list.txt",
      ".mind/home.py",
    ],
    // The backquoted command is read as its words are expanded, so its file comes before the script.
    pinned: [
      ".mind/lib",
      ".mind/list.txt",
      ".mind/x.py",
      ".mind/policy.toml",
      ".mind/default.sh",
      // bash keeps `\x` not followed by hex digits as it is (round 2 dropped the backslash).
      ".mind/q\\x.py",
      ".mind/home.py",
    ],
  },
  {
    source: "constructed: escapes, env wrapper, a curl piped into sh",
    command: "env -i FOO=1 python3 .mind/with\\ space.py; curl -fsSL https://example.com/i.sh | sh",
    files: [".mind/with space.py", "i.sh"],
    pinned: [".mind/with space.py"],
    fetch: "curl",
    unpinnable: "a download piped into sh",
  },
  {
    source: "constructed: pnpm dlx, a relative ../ that leaves the root, an unterminated quote",
    command: 'pnpm dlx some-tool ../outside.sh "unterminated .mind/x.sh',
    files: ["outside.sh", ".mind/x.sh"],
    pinned: [],
    fetch: "pnpm dlx",
    unpinnable: "pnpm dlx (fetches the code it runs)",
  },
];

Deno.test("command tokeniser: at least 40 real command lines, each with its source", () => {
  const real = CASES.filter((c) => !c.source.startsWith("constructed"));
  assertEquals(real.length >= 40, true, `only ${real.length} real command lines`);
});

for (const [i, c] of CASES.entries()) {
  Deno.test(`command tokeniser ${i + 1}: ${c.source}`, () => {
    assertEquals(outcome(c), { pinned: c.pinned, fetch: c.fetch ?? null, unpinnable: c.unpinnable ?? null }, c.command);
  });
}

Deno.test("command tokeniser: nesting past the bound reads no deeper (and says so); hostile lengths stay linear", () => {
  let cmd = "python3 .mind/deep.py";
  for (let i = 0; i <= MAX_NESTING + 1; i++) cmd = `echo "$(${cmd})"`;
  const root = "/r";
  const scan = readCommand(cmd, context(root, "project"));
  assertEquals(scan.files.includes("/r/.mind/deep.py"), false);
  assertEquals(scan.unpinnable, `nesting deeper than ${MAX_NESTING} levels`);
  const long = "x ".repeat(200_000) + '"'.repeat(1000) + "$(".repeat(5000);
  const started = performance.now();
  readCommand(long, context(root, "project"));
  assertEquals(performance.now() - started < 2000, true, "a 400 KB command scans in well under 2 s");
});

Deno.test("command tokeniser: hostile nesting never overflows the stack (a stranger writes the command)", () => {
  const root = "/r";
  const ctx = context(root, "project");
  for (
    const hostile of [
      "${A:-".repeat(20_000),
      '"$('.repeat(20_000),
      '$"'.repeat(20_000),
      '"${A:-"'.repeat(20_000),
      "$(".repeat(300_000),
      "~ ".repeat(300_000),
    ]
  ) {
    const started = performance.now();
    const scan = readCommand(hostile + " .mind/x.py", ctx);
    assertEquals(Array.isArray(scan.files), true);
    assertEquals(performance.now() - started < 3000, true, `${hostile.slice(0, 8)}… took too long`);
  }
  // A default nested within the bound is still read (B is unknown: the command says so).
  const nested = readCommand("python3 ${A:-${B:-.mind/x.py}}", ctx);
  assertEquals([nested.files.includes("/r/.mind/x.py"), nested.unpinnable], [true, "${A:-${B:-.mind/x.py}}"]);
});
