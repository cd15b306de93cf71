import { assertEquals } from "../../tests/helpers/assert.ts";
import { type Observed, unmet } from "./expect.ts";
import type { TestCase } from "./test_file.ts";
import { junitXml, xmlEscape } from "./junit.ts";

const run = (key: string, status: string) => ({
  key,
  layer: "project" as const,
  status: status as "completed",
  reason: null,
  exit_code: 0,
  duration_ms: 1,
  statusMessage: null,
});
const OBSERVED: Observed = {
  decision: "deny",
  reason: "rm -rf is not allowed",
  context: ["be careful", "tickets"],
  continue: true,
  updatedInput: { command: "ls", timeout: 5 },
  runs: [
    run("project:/p/.mind/hooks.json:PreToolUse:0:0", "blocked"),
    run("user:/h/hooks.json:PreToolUse:0:0", "completed"),
  ],
};
const c = (x: Partial<TestCase>) => ({ name: "c", ...x }) as TestCase;

Deno.test("unmet: every expectation kind met gives nothing", () => {
  assertEquals(
    unmet(
      c({
        decision: "deny",
        reason: "^rm -rf",
        context: ["careful", "tick"],
        continue: true,
        updatedInput: { command: "ls" },
        runs: { ".mind/hooks.json:PreToolUse:0:0": "blocked", "user:/h/hooks.json:PreToolUse:0:0": "completed" },
      }),
      OBSERVED,
    ),
    [],
  );
  assertEquals(unmet(c({ decision: "none" }), { ...OBSERVED, decision: null }), []);
});

Deno.test("unmet: each kind unmet says what differs", () => {
  assertEquals(
    unmet(
      c({
        decision: "allow",
        reason: "^nope",
        context: ["absent"],
        continue: false,
        updatedInput: { command: "pwd" },
        runs: { "PreToolUse:0:0": "completed", "Stop:0:0": "completed", ".mind/hooks.json:PreToolUse:0:0": "failed" },
      }),
      OBSERVED,
    ),
    [
      "decision deny, expected allow",
      'reason "rm -rf is not allowed" does not match /^nope/',
      'context lacks "absent" (got ["be careful","tickets"])',
      "continue true, expected false",
      'updatedInput {"command":"ls","timeout":5}, expected {"command":"pwd"}',
      "runs: PreToolUse:0:0 names 2 hooks",
      "runs: no hook Stop:0:0 matched",
      "project:/p/.mind/hooks.json:PreToolUse:0:0 blocked, expected failed",
    ],
  );
  assertEquals(unmet(c({ reason: "(" }), OBSERVED), ['reason "(" is not a regular expression']);
});

Deno.test("junit: escapes what XML cannot hold; counts failures and errors per file", () => {
  assertEquals(xmlEscape(`<a & "b" 'c'>\u0001`), "&lt;a &amp; &quot;b&quot; &apos;c&apos;&gt;\uFFFD");
  const xml = junitXml([
    { file: "a.toml", name: "ok", failures: [], error: null, ms: 1500, observed: null },
    { file: "a.toml", name: "bad <x>", failures: ["decision none, expected deny"], error: null, ms: 2, observed: null },
    { file: "b.toml", name: "err", failures: [], error: "no event", ms: 0, observed: null },
  ]);
  assertEquals(xml.split("\n").slice(0, 3), [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<testsuites name="mind-hooks test" tests="3" failures="1" errors="1" time="1.502">',
    '  <testsuite name="a.toml" tests="2" failures="1" errors="0" time="1.502">',
  ]);
  assertEquals(xml.includes('<testcase name="bad &lt;x&gt;" classname="a.toml" time="0.002">'), true);
  assertEquals(xml.includes('<error message="no event">no event</error>'), true);
});
