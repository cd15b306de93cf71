/**
 * The one order of a dispatch's `systemMessages` (SPEC §6, §8, §15), whole: the problems first, then
 * what the dispatch itself says, each hook's failure or own message in configuration order, the
 * loop guard, the closing lines, and — only in the fail-safe answer — the engine-failure line last.
 */
import { assertEquals } from "../../tests/helpers/assert.ts";
import type { AnyCatalog, HookHandler } from "../config/discovery.ts";
import { NO_HOME_DISPATCH } from "../config/warnings.ts";
import { EVENTS } from "../events/registry.ts";
import type { HandlerOutcome } from "../events/types.ts";
import { closingLines, ENGINE_FAILED, quietFacts, systemMessages } from "./messages.ts";
import type { Dispatching, EventInput, HandlerRun, Verdict } from "./types.ts";

const EV = { event: "PreToolUse", input: {}, warnings: [] } as EventInput;
const D: Dispatching = { tempDir: "/nonexistent", io: {} };

const RECORD = {
  layer: "user",
  status: "skipped",
  reason: null,
  exit_code: null,
  duration_ms: null,
  statusMessage: null,
};

function run(key: string, outcome?: HandlerOutcome, verdict: Verdict = { runs: true, status: "trusted" }): HandlerRun {
  const handler = { key, handler: { type: "command", command: "true" } } as unknown as HookHandler;
  return { handler, verdict, record: { ...RECORD, key } as HandlerRun["record"], outcome, completedSeq: 1 };
}

const runs = [
  run("a", { status: "failed", reason: "exit 3", systemMessage: "a's word" }),
  run("b", { status: "completed", effect: { systemMessage: "b says" } }),
  run("c"),
  run("d", { status: "completed", effect: {} }),
];

Deno.test("messages: every kind of line, in the one order", () => {
  const facts = {
    ...quietFacts(EVENTS.PreToolUse),
    problems: ["problem"],
    noHome: NO_HOME_DISPATCH,
    cwdMissing: "cwd missing",
    asyncFailed: "async failed",
    runs,
    stopLoop: ["loop"],
    closing: ["closing"],
  };
  const normal = [
    "problem",
    NO_HOME_DISPATCH,
    "cwd missing",
    "async failed",
    "hook a failed: exit 3 (a's word)",
    "b says",
    "loop",
    "closing",
  ];
  assertEquals(systemMessages(facts), normal);
  assertEquals(systemMessages({ ...facts, engineFailed: true }), [...normal, ENGINE_FAILED]);
  assertEquals(systemMessages(quietFacts(EVENTS.Stop)), []);
});

Deno.test("messages: the closing lines of an untrusted project with hooks needing review; a failing part left out only in the fail-safe", async () => {
  const skipped = (key: string, unpinned: boolean): HandlerRun =>
    run(key, undefined, {
      runs: false,
      status: "modified",
      skip: "modified",
      reason: "modified",
      unpinned,
      changedGuard: null,
    });
  const project = { root: "/repo", trusted: false, trustLevel: null, hasHookFiles: true, foreignDirs: [] };
  const catalog = { project, trustStoreProblem: null } as unknown as AnyCatalog;
  const two = [skipped("x", true), skipped("y", false), run("z")];
  assertEquals(await closingLines(EV, catalog, EVENTS.PreToolUse, two, D), [
    "project /repo has hooks but is not trusted: run mind-hooks project trust /repo",
    "2 hooks need review: run mind-hooks review",
    "1 of them was trusted before mind-hooks pinned the files hooks run: one review pins its files",
  ]);
  const broken = {
    trustStoreProblem: null,
    get project(): never {
      throw new Error("injected");
    },
  } as unknown as AnyCatalog;
  assertEquals(await closingLines(EV, broken, EVENTS.PreToolUse, two, D, true), [
    "2 hooks need review: run mind-hooks review",
    "1 of them was trusted before mind-hooks pinned the files hooks run: one review pins its files",
  ]);
  let threw = false;
  await closingLines(EV, broken, EVENTS.PreToolUse, two, D).catch(() => threw = true);
  assertEquals(threw, true);
});
