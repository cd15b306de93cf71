import { assertEquals } from "../../tests/helpers/assert.ts";
import { closest, didYouMean, editDistance } from "./suggest.ts";

/** The 12 event names (SPEC §2.2), written out: util/ must not import events/. */
const EVENT_NAMES = [
  "SessionStart",
  "SessionEnd",
  "UserPromptSubmit",
  "PreToolUse",
  "PermissionRequest",
  "PostToolUse",
  "PreCompact",
  "PostCompact",
  "SubagentStart",
  "SubagentStop",
  "Stop",
  "Interrupt",
];

Deno.test("editDistance: edits and neighbour swaps cost one each", () => {
  assertEquals(
    [
      editDistance("lsit", "list"),
      editDistance("jsn", "json"),
      editDistance("", "abc"),
      editDistance("kitten", "sitting"),
      editDistance("same", "same"),
    ],
    [1, 1, 3, 3, 0],
  );
});

Deno.test("closest: typos find their name; far-off words find nothing", () => {
  const commands = ["dispatch", "serve", "list", "review", "trust", "untrust", "logs", "prune"];
  const cases: [string, readonly string[], string | null][] = [
    ["lsit", commands, "list"],
    ["reveiw", commands, "review"],
    ["dispach", commands, "dispatch"],
    ["trsut", commands, "trust"],
    ["frobnicate", commands, null],
    ["x", commands, null],
    ["PreTooluse", EVENT_NAMES, "PreToolUse"],
    ["pretooluse", EVENT_NAMES, "PreToolUse"],
    ["PreToolUsed", EVENT_NAMES, "PreToolUse"],
    ["Stpo", EVENT_NAMES, "Stop"],
    ["SessionStarted", EVENT_NAMES, "SessionStart"],
    ["constructor", EVENT_NAMES, null],
    ["__proto__", EVENT_NAMES, null],
    // A unique beginning is enough for long names.
    ["dry", ["dry-run", "force"], "dry-run"],
    ["dangerously", ["dangerously-bypass-hook-trust", "home"], "dangerously-bypass-hook-trust"],
    ["jsn", ["json", "home", "cwd"], "json"],
    // A huge input is not compared at all.
    ["x".repeat(10_000), EVENT_NAMES, null],
  ];
  assertEquals(cases.map(([input, names]) => closest(input, names)), cases.map(([, , want]) => want));
});

Deno.test("didYouMean: the sentence tail, quoted as asked", () => {
  assertEquals(
    [didYouMean("lsit", ["list"]), didYouMean("jsn", ["json"], (n) => `--${n}`), didYouMean("zzz", ["list"])],
    ['; did you mean "list"?', "; did you mean --json?", ""],
  );
});
