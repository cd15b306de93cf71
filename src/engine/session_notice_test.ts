/**
 * The session start's lines (SPEC §6 r3) as whole strings, and the text-only count of an untrusted
 * project's hooks (never a parse): Claude Code settings' other `"type": "command"` entries are not hooks.
 */
import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import type { HookHandler } from "../config/discovery.ts";
import {
  countHandlersInText,
  hooksObjectText,
  hostHooksNotice,
  projectNotice,
  reviewNotice,
} from "./session_notice.ts";

const hook = (event: string, matcher: string | null, command: string) =>
  ({ event, matcher, handler: { type: "command", command } }) as unknown as HookHandler;

Deno.test("review notice: one hook, three, and more than three (counted)", () => {
  assertEquals(reviewNotice([]), null);
  assertEquals(
    reviewNotice([{
      hook: hook("PreToolUse", "Bash", "python3 .mind/check_tool.py"),
      why: "modified: .mind/check_tool.py changed",
    }]),
    `mind-hooks: 1 hook will not run until reviewed — PreToolUse Bash "python3 .mind/check_tool.py" (modified: .mind/check_tool.py changed): run mind-hooks review`,
  );
  const five = ["a", "b", "c", "d", "e"].map((c) => ({ hook: hook("Stop", null, `sh ${c}.sh`), why: "untrusted" }));
  assertEquals(
    reviewNotice(five),
    `mind-hooks: 5 hooks will not run until reviewed — Stop "sh a.sh" (untrusted), Stop "sh b.sh" (untrusted), Stop "sh c.sh" (untrusted) and 2 more: run mind-hooks review`,
  );
  const long = hook("PostToolUse", "*", "x".repeat(100));
  assertEquals(
    reviewNotice([{ hook: long, why: "untrusted" }]),
    `mind-hooks: 1 hook will not run until reviewed — PostToolUse * "${
      "x".repeat(60)
    }…" (untrusted): run mind-hooks review`,
  );
});

Deno.test("review notice: the guards (events that can block) are named first, in file order within each", () => {
  const hooks = [
    { hook: hook("SessionStart", null, "sh banner.sh"), why: "untrusted" },
    { hook: hook("PostCompact", null, "sh note.sh"), why: "untrusted" },
    { hook: hook("Notification", null, "sh ping.sh"), why: "untrusted" },
    { hook: hook("PreToolUse", "Bash", "python3 guard.py"), why: "untrusted" },
    { hook: hook("Stop", null, "sh tests.sh"), why: "modified" },
  ];
  assertEquals(
    reviewNotice(hooks),
    `mind-hooks: 5 hooks will not run until reviewed — PreToolUse Bash "python3 guard.py" (untrusted), Stop "sh tests.sh" (modified), SessionStart "sh banner.sh" (untrusted) and 2 more: run mind-hooks review`,
  );
});

Deno.test("project notice: its folders, counted or not", () => {
  assertEquals(
    projectNotice("/src/repo", [{ folder: ".mind", hooks: 2 }, { folder: ".claude", hooks: 1 }]),
    "mind-hooks: /src/repo has 3 hooks in .mind/ and .claude/; they will not run: mind-hooks project trust /src/repo",
  );
  assertEquals(
    projectNotice("/r", [{ folder: ".codex", hooks: 1 }]),
    "mind-hooks: /r has 1 hook in .codex/; it will not run: mind-hooks project trust /r",
  );
  assertEquals(
    projectNotice("/r", [{ folder: ".mind", hooks: 1 }, { folder: ".claude", hooks: null }, {
      folder: ".codex",
      hooks: 4,
    }]),
    "mind-hooks: /r has hooks in .mind/, .claude/ and .codex/; they will not run: mind-hooks project trust /r",
  );
});

Deno.test("count: handlers by their type, in JSON only inside the hooks object, in TOML anywhere", () => {
  const settings = JSON.stringify({
    statusLine: { type: "command", command: "echo s" },
    hooks: {
      PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "a" }, { type: "http", url: "u" }] }],
      Stop: [{ hooks: [{ "type": "command", "command": 'say "}" {' }] }],
    },
    fileSuggestion: { type: "command", command: "f" },
  });
  assertEquals(countHandlersInText(settings, "json"), 3);
  assertEquals(countHandlersInText(`{"permissions": {"allow": ["Bash"]}}`, "json"), 0);
  assertEquals(hooksObjectText(`{"hooks": {"a": "}"}, "x": {}}`), `{"a": "}"}`);
  // An unclosed object counts what is there.
  assertEquals(countHandlersInText(`{"hooks": {"Stop": [{"hooks": [{"type": "command"`, "json"), 1);
  const toml = `[[hooks.PreToolUse]]\nmatcher = "Bash"\n[[hooks.PreToolUse.hooks]]\ntype = "command"\ncommand = "x"\n` +
    `[[hooks.Stop]]\nhooks = [{ type = 'mcp_tool', server = "s", tool = "t" }]\n[mcp_servers.s]\nurl = "http://h"\n`;
  assertEquals(countHandlersInText(toml, "toml"), 2);
});

Deno.test("session start: other hosts' hooks that will not run are named (up to three, then a count)", () => {
  const w = (code: "W_HOST_EVENT_UNMAPPED" | "W_UNSUPPORTED_HANDLER", message: string) => ({
    code,
    message,
    source: "/repo/.gemini/settings.json",
  });
  assertEquals(hostHooksNotice([w("W_UNSUPPORTED_HANDLER", 'handler type "x" is not supported; skipped')]), null);
  const line = hostHooksNotice([
    w("W_HOST_EVENT_UNMAPPED", "Gemini CLI's BeforeModel has no counterpart in mind: its hook does not run"),
    w(
      "W_UNSUPPORTED_HANDLER",
      "Copilot CLI hook preToolUse[1] is PowerShell only (no bash): it cannot run here; skipped",
    ),
  ]);
  assertEquals(
    line,
    "mind-hooks: other hosts' hooks that will not run here — Gemini CLI's BeforeModel has no counterpart in mind: " +
      "its hook does not run (/repo/.gemini/settings.json); Copilot CLI hook preToolUse[1] is PowerShell only (no bash): " +
      "it cannot run here; skipped (/repo/.gemini/settings.json)",
  );
  const many = hostHooksNotice(Array.from({ length: 5 }, (_, i) => w("W_HOST_EVENT_UNMAPPED", `e${i}`)));
  assert(many!.endsWith("; and 2 more: see mind-hooks list"), many!);
});
