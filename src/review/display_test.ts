/**
 * What people see of paths, keys and times (src/review/display.ts, SPEC §14 r3): paths relative to
 * the project root or with `~`, the shortest key tail `trust` accepts, a log's key without a catalog,
 * local time and age.
 */
import { assertEquals } from "../../tests/helpers/assert.ts";
import { ago, keyTails, localTime, loneKeyTail, peoplePath, timeAndAge } from "./display.ts";
import { resolveKey } from "../trust/actions.ts";
import { ok } from "../util/result.ts";
import type { HookHandler } from "../config/discovery.ts";

const ctx = { projectRoot: "/h/alice/src/repo", userHome: "/h/alice" };

Deno.test("display: paths relative to the project root, else with ~, else as they are", () => {
  assertEquals(
    [
      "/h/alice/src/repo/.mind/hooks.json",
      "/h/alice/src/repo",
      "/h/alice/.mind/config.toml",
      "/h/alice",
      "/h/alicex/y",
      "/etc/mind/requirements.toml",
    ].map((p) => peoplePath(p, ctx)),
    [".mind/hooks.json", "~/src/repo", "~/.mind/config.toml", "~", "/h/alicex/y", "/etc/mind/requirements.toml"],
  );
  assertEquals(peoplePath("/r/.claude/settings.json", { projectRoot: "/r", userHome: null }), ".claude/settings.json");
});

Deno.test("display: key tails are the shortest that name one hook, and trust resolves each to its hook", () => {
  const keys = [
    "project:/h/alice/src/repo/.mind/hooks.json:PreToolUse:0:0",
    "project:/h/alice/src/repo/.mind/hooks.json:PreToolUse:0:1",
    "user:/h/alice/.mind/hooks.json:PreToolUse:0:0",
    "user:/h/alice/.mind/config.toml:Stop:0:0",
    "claude-project:/h/alice/src/repo/.claude/settings.json:Stop:0:0",
    "cli:cli-override:Stop:0:0",
  ];
  const tails = keyTails(keys, ctx);
  assertEquals([...tails.values()], [
    // Inside the project: at least its path from the root.
    "repo/.mind/hooks.json:PreToolUse:0:0",
    ".mind/hooks.json:PreToolUse:0:1",
    // The user's hooks.json: `.mind/hooks.json:PreToolUse:0:0` would also name the project's.
    "alice/.mind/hooks.json:PreToolUse:0:0",
    "config.toml:Stop:0:0",
    ".claude/settings.json:Stop:0:0",
    "cli-override:Stop:0:0",
  ]);
  const handlers = keys.map((key) => ({ key }) as HookHandler);
  for (const [key, tail] of tails) assertEquals(resolveKey(handlers, tail), ok(handlers[keys.indexOf(key)]));
});

Deno.test("display: a log's key without a catalog: from the repository's folder, or with ~", () => {
  assertEquals(
    [
      "project:/h/alice/src/my-repo/.mind/hooks.json:PreToolUse:0:0",
      "claude-project:/w/x/.claude/settings.local.json:Stop:1:0",
      "user:/h/alice/.mind/hooks.json:Stop:0:0",
      "managed:/etc/mind/requirements.toml:Stop:0:0",
      "not a key",
    ].map((k) => loneKeyTail(k, "/h/alice")),
    [
      "my-repo/.mind/hooks.json:PreToolUse:0:0",
      "x/.claude/settings.local.json:Stop:1:0",
      "~/.mind/hooks.json:Stop:0:0",
      "/etc/mind/requirements.toml:Stop:0:0",
      "not a key",
    ],
  );
});

Deno.test("display: local time and age", () => {
  const iso = "2026-12-01T18:38:05.000Z";
  const t = new Date(iso);
  const two = (n: number) => String(n).padStart(2, "0");
  const local = `${t.getFullYear()}-${two(t.getMonth() + 1)}-${two(t.getDate())} ${two(t.getHours())}:${
    two(t.getMinutes())
  }`;
  const now = Date.parse(iso);
  assertEquals(
    [localTime(iso), localTime(iso, true), timeAndAge(iso, now + 2 * 3600_000 + 5), localTime("garbage")],
    [local, `${local}:05`, `${local} (2 h ago)`, "garbage"],
  );
  assertEquals([0, 59, 60, 3599, 3600, 86_399, 86_400, -5].map((s) => ago(iso, now + s * 1000)), [
    "0 s ago",
    "59 s ago",
    "1 min ago",
    "59 min ago",
    "1 h ago",
    "23 h ago",
    "1 d ago",
    "0 s ago",
  ]);
});
