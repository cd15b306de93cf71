/**
 * SPEC §15 (r2): an untrusted or modified hook's matcher cannot slow a dispatch by more than 50 ms,
 * and "N hooks need review" still appears. The matchers below backtrack catastrophically in
 * JavaScript's engine against the tool name the model picks; a dispatch on the old code never ends.
 * The budget itself (unit): src/matching/safe_matcher_test.ts.
 */
import { assert, assertEquals, assertStringIncludes } from "./helpers/assert.ts";
import { cmd, event, group, makeHome, runCli, trustAll, writeHooksJson } from "./helpers/cli.ts";

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

Deno.test("redos: an untrusted catastrophic matcher against a long tool name does not stall the dispatch", async () => {
  await using home = await makeHome();
  await writeHooksJson(home.path, {
    PreToolUse: [group([cmd("echo never")], REDOS), group([cmd("echo never")], String.raw`(x+x+)+y`)],
  });
  const { ms, result } = await timedDispatch(home.path, "a".repeat(60));
  assert(ms < BOUND_MS, `dispatch took ${Math.round(ms)} ms`);
  // The linear-time engine's verdict: neither matches a name without "!" or "y".
  assertEquals(result.runs, []);
  // A name that does match is reported, and the review line names the need.
  const matched = await timedDispatch(home.path, "a".repeat(60) + "!");
  assert(matched.ms < BOUND_MS, `dispatch took ${Math.round(matched.ms)} ms`);
  assertEquals(matched.result.runs.map((r: { reason: string }) => r.reason), ["untrusted"]);
  assertEquals(matched.result.systemMessages, ["1 hook needs review: run mind-hooks review"]);
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
