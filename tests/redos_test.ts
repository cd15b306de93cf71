/**
 * SPEC §15 (r2): an untrusted or modified hook's matcher cannot slow a dispatch by more than 50 ms,
 * and "N hooks need review" still appears. The matchers below backtrack catastrophically in
 * JavaScript's engine against the tool name the model picks; a dispatch on the old code never ends.
 */
import { assert, assertEquals, assertStringIncludes } from "./helpers/assert.ts";
import { cmd, event, group, makeHome, runCli, trustAll, writeHooksJson } from "./helpers/cli.ts";
import { BUDGET_SPENT, SafeMatching } from "../src/matching/safe_matcher.ts";
import { compileMatcher, type Matcher } from "../src/matching/matcher.ts";

const REDOS = String.raw`^(\w|\w\w)*!`;
/** Wall-time bound of one dispatch, process start included (generous: the machine may be loaded). */
const BOUND_MS = 3000;

async function timedDispatch(home: string, toolName: string) {
  const res = await runCli(["dispatch", "--home", home], {
    stdin: JSON.stringify(event("PreToolUse", { tool_name: toolName })),
    env: { MIND_TEMP_DIR: `${home}/spill` },
    killAfterMs: 20_000,
  });
  assertEquals(res.code, 0, `exit ${res.code} after ${Math.round(res.ms)} ms: ${res.stderr}`);
  return { ms: res.ms, result: res.json() };
}

/** Whether the dispatch ran out of the matcher budget (a loaded machine), as its warning says. */
function budgetSpent(result: { warnings: { message: string }[] }): boolean {
  return result.warnings.some((w) => w.message.includes(BUDGET_SPENT));
}

Deno.test("redos: an untrusted catastrophic matcher against a long tool name does not stall the dispatch", async () => {
  await using home = await makeHome();
  await writeHooksJson(home.path, {
    PreToolUse: [group([cmd("echo never")], REDOS), group([cmd("echo never")], String.raw`(x+x+)+y`)],
  });
  const { ms, result } = await timedDispatch(home.path, "a".repeat(60));
  assert(ms < BOUND_MS, `dispatch took ${Math.round(ms)} ms`);
  // The linear-time engine's verdict: neither matches a name without "!" or "y" (unless a loaded
  // machine spent the budget first: then what was not checked counts as matched, and is said so).
  if (!budgetSpent(result)) assertEquals(result.runs, []);
  // A name that does match is reported, and the review line names the need.
  const matched = await timedDispatch(home.path, "a".repeat(60) + "!");
  assert(matched.ms < BOUND_MS, `dispatch took ${Math.round(matched.ms)} ms`);
  // A machine too loaded to check the second matcher within the budget counts it as matched, and says
  // so (the bound holds either way): then both hooks need review.
  const spent = budgetSpent(matched.result);
  assertEquals(
    matched.result.runs.map((r: { reason: string }) => r.reason),
    spent ? ["untrusted", "untrusted"] : ["untrusted"],
  );
  assertEquals(matched.result.systemMessages, [
    `${spent ? "2 hooks need" : "1 hook needs"} review: run mind-hooks review`,
  ]);
});

Deno.test("redos: a modified hook's matcher is checked safely too; trusted hooks still match natively", async () => {
  await using home = await makeHome();
  const path = await writeHooksJson(home.path, {
    PreToolUse: [group([cmd("echo trusted-ran")], "^a+b?$"), group([cmd("echo never")], REDOS)],
  });
  await trustAll(home.path);
  // Editing the second hook's command keeps its trusted hash: it is now "modified".
  await writeHooksJson(home.path, {
    PreToolUse: [group([cmd("echo trusted-ran")], "^a+b?$"), group([cmd("echo changed")], REDOS)],
  });
  const { ms, result } = await timedDispatch(home.path, "a".repeat(60));
  assert(ms < BOUND_MS, `dispatch took ${Math.round(ms)} ms`);
  assertEquals(result.runs.map((r: { key: string; status: string }) => [r.key, r.status]), [
    [`user:${path}:PreToolUse:0:0`, "completed"],
  ]);
});

Deno.test("redos: what the linear-time engine cannot check counts as matched, with W_MATCHER_UNCHECKED", async () => {
  await using home = await makeHome();
  await writeHooksJson(home.path, {
    PreToolUse: [
      group([cmd("echo never")], String.raw`^(?=(\w|\w\w)*!)`),
      group([cmd("echo never")], String.raw`(a)\1*!`),
      group([cmd("echo never")], `(${"a|".repeat(200)}b)*!`),
    ],
  });
  const { ms, result } = await timedDispatch(home.path, "a".repeat(60));
  assert(ms < BOUND_MS, `dispatch took ${Math.round(ms)} ms`);
  assertEquals(result.runs.map((r: { reason: string }) => r.reason), ["untrusted", "untrusted", "untrusted"]);
  assertEquals(result.systemMessages, ["3 hooks need review: run mind-hooks review"]);
  const unchecked = result.warnings.filter((w: { code: string }) => w.code === "W_MATCHER_UNCHECKED");
  assertEquals(unchecked.length, 3);
  assertStringIncludes(unchecked[0].message, "lookaround or backreferences");
  assertStringIncludes(unchecked[2].message, "longer than 256 characters");
  // A 1 MB tool name: not even the linear-time engine reads it.
  const huge = await timedDispatch(home.path, "a".repeat(1_000_000));
  assert(huge.ms < BOUND_MS, `dispatch took ${Math.round(huge.ms)} ms`);
  assertEquals(huge.result.runs.length, 3);
});

Deno.test("redos: 300 untrusted regex hooks share one budget and one warning", async () => {
  await using home = await makeHome();
  const groups = Array.from({ length: 300 }, (_, i) => group([cmd("echo never")], `(.*a){${60 + (i % 20)}}x${i}`));
  await writeHooksJson(home.path, { PreToolUse: groups });
  const { ms, result } = await timedDispatch(home.path, "a".repeat(256));
  assert(ms < BOUND_MS, `dispatch took ${Math.round(ms)} ms`);
  const unchecked = result.warnings.filter((w: { code: string }) => w.code === "W_MATCHER_UNCHECKED");
  assert(unchecked.length <= 1, JSON.stringify(unchecked));
});

Deno.test("redos: the budget bounds many untrusted matchers together (unit)", async () => {
  const m = (text: string) => compileMatcher(text) as Matcher;
  const safe = new SafeMatching();
  // The budget counts from the engine's load (a fixed cost, left out of it): loaded first here.
  await safe.match(m("^load$"), ["x"]);
  const started = performance.now();
  const outcomes = [];
  for (let i = 0; i < 2000; i++) outcomes.push(await safe.match(m(`(.*a){${40 + (i % 50)}}x${i}`), ["a".repeat(256)]));
  const ms = performance.now() - started;
  assert(ms < 50, `2,000 untrusted matchers took ${Math.round(ms)} ms`);
  assert(outcomes.some((o) => o.unchecked === BUDGET_SPENT), "the budget was never reached");
  assertEquals(outcomes.filter((o) => o.unchecked === null && o.matched).length, 0);
});

Deno.test("redos: the budget counts from the engine's load, so a slow import spends none of it (unit)", async () => {
  const safe = new SafeMatching();
  // Time passing before the engine is ready (a loaded machine importing it) must not count.
  const until = performance.now() + 60;
  while (performance.now() < until) { /* the import's time, simulated */ }
  const outcome = await safe.match(compileMatcher(String.raw`^(\w|\w\w)*!`) as Matcher, ["a".repeat(60)]);
  assertEquals(outcome, { matched: false, unchecked: null });
});
