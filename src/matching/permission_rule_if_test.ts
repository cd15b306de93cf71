/**
 * SPEC §2.2 (r3): the `if` filter errs toward running the guard. A Bash command is split across
 * operators, pipes, groups, keywords and substitutions; wrappers with their options are stripped; the
 * handler runs when any simple command matches, and a command the splitter cannot read matches. Each
 * rule is compiled once per dispatch, matching is linear, and past 50 ms of filters in one dispatch
 * the rest match (`W_IF_BUDGET`). The end-to-end guard runs are in tests/if_filter_e2e_test.ts; the
 * cases Claude Code's own CLI can show are compared with it in tests/interop/claude_dialect.ts.
 */
import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import { IfFilter, ruleMatchesToolCall } from "./permission_rule.ts";
import { bashSubjects, simpleCommands } from "./bash_split.ts";

const bash = (rule: string, command: string) =>
  ruleMatchesToolCall(rule, { toolName: "Bash", toolInput: { command }, cwd: "/repo" });

/** Commands that run `rm -rf build` in one of the forms issue 21 found skipping an `if: "Bash(rm *)"` guard. */
export const GUARDED_FORMS: readonly string[] = [
  "{ rm -rf build; }",
  "if true; then rm -rf build; fi",
  "if rm -rf build; then :; fi",
  "if false; then :; elif true; then :; else rm -rf build; fi",
  "for f in a b; do rm -rf build; done",
  "while true; do rm -rf build; break; done",
  "until false; do rm -rf build; done",
  "case x in x) rm -rf build;; esac",
  "case x in\n  y) ls;;\n  x) rm -rf build;;\nesac",
  "! rm -rf build",
  "(rm -rf build)",
  "(cd src && rm -rf build)",
  "function f { rm -rf build; }; f",
  "timeout 5 rm -rf build",
  "timeout -s KILL --kill-after=2 5 rm -rf build",
  "time rm -rf build",
  "time -p rm -rf build",
  "nice -n 5 rm -rf build",
  "nice -5 rm -rf build",
  "nohup rm -rf build",
  "command rm -rf build",
  "command -p rm -rf build",
  "exec rm -rf build",
  "stdbuf -o0 rm -rf build",
  "stdbuf -oL -e 0 rm -rf build",
  "env rm -rf build",
  "env -i -- FOO=1 rm -rf build",
  "env -u HOME rm -rf build",
  "env -S 'rm -rf build'",
  "xargs rm -rf",
  "find . -name x | xargs -0 -n1 rm -rf",
  "/usr/bin/timeout 5 /bin/nice rm -rf build",
  "nohup nice -n 5 timeout 10 rm -rf build",
  "ls && rm -rf build",
  "ls || rm -rf build",
  "ls | rm -rf build",
  "ls |& rm -rf build",
  "ls & rm -rf build",
  "ls\nrm -rf build",
  "FOO=1 BAR=2 rm -rf build > log 2>&1",
  "rm -rf build &> /dev/null",
  "r\\m -rf build",
  "builtin command rm -rf build",
  "eval 'rm -rf build'",
  "bash -lc 'cd x && rm -rf build'",
  'sh -c "nohup rm -rf build"',
  "find . -name '*.o' -exec rm -f {} \\;",
  "xargs sh -c 'rm -rf build'",
  "'rm' -rf build",
];

/** Lines the splitter cannot read: every rule matches them (the guard runs). */
export const UNREADABLE_FORMS: readonly string[] = [
  "$(echo rm) -rf build",
  "echo `whoami`",
  "X=$(rm -rf build)",
  "diff <(rm -rf build) x",
  "cat <<EOF\nrm -rf build\nEOF",
  "{rm,-rf,build}",
  "/bin/r? -rf build",
  "echo 'unterminated",
  "echo $HOME",
  "echo \u0007",
];

Deno.test("if: every form of issue 21 that skipped a Bash(rm *) guard now runs it", () => {
  for (const c of GUARDED_FORMS) assertEquals(bash("Bash(rm *)", c), true, c);
  for (const c of GUARDED_FORMS) assertEquals(bash("Bash(rm:*)", c), true, c);
  for (const c of UNREADABLE_FORMS) assertEquals([c, bashSubjects(c)], [c, null]);
  for (const c of UNREADABLE_FORMS) assertEquals(bash("Bash(rm *)", c), true, c);
});

Deno.test("if: a guard still does not run where no simple command matches", () => {
  for (
    const c of [
      "ls",
      "echo rm -rf build",
      "{ ls; }",
      "if true; then ls; fi",
      "for rm in a b; do ls; done",
      "case rm in rm) ls;; esac",
      "timeout 5 ls",
      "nice -n 5 make",
      "env FOO=rm ls",
      "git commit -m 'rm -rf build'",
      "echo ok > rm",
    ]
  ) assertEquals(bash("Bash(rm *)", c), false, c);
});

Deno.test("if: the split, the keywords dropped, each wrapper's command a subject of its own", () => {
  assertEquals(simpleCommands("if a; then { b; }; fi; for x in y; do c | d; done"), ["a", "b", "c", "d"]);
  assertEquals(simpleCommands("case $x in"), null);
  assertEquals(simpleCommands("case v in a|b) one;; (c) two;; esac"), ["one", "two"]);
  assertEquals(bashSubjects("nohup nice -n 5 timeout -k 2 10 rm  -rf  build"), [
    "nohup nice -n 5 timeout -k 2 10 rm -rf build",
    "nice -n 5 timeout -k 2 10 rm -rf build",
    "timeout -k 2 10 rm -rf build",
    "rm -rf build",
  ]);
  assertEquals(bashSubjects("env -S 'sh .mind/check.sh' extra"), [
    "env -S sh .mind/check.sh extra",
    "sh .mind/check.sh extra",
  ]);
  assertEquals(bashSubjects("find . | xargs -I{} -P 4 rm {}"), ["find .", "xargs -I{} -P 4 rm {}", "rm {}"]);
  // A rule naming the wrapper itself still matches the whole command.
  assertEquals(bash("Bash(timeout *)", "timeout 5 rm -rf build"), true);
  assertEquals(bash("Bash(git push:*)", "command git push origin main"), true);
});

Deno.test("if: a rule is compiled once per dispatch, and past the budget the rest match with a count", () => {
  // The clock as each evaluation reads it, before and after: 10 ms, then 60 ms.
  const readings = [0, 10, 10, 70];
  const filter = new IfFilter(
    { toolName: "Bash", toolInput: { command: "ls" }, cwd: "/repo" },
    { budgetMs: 50, now: () => readings.shift() ?? 70 },
  );
  assertEquals(filter.matches("Bash(rm *)"), false);
  assertEquals([filter.matches("Bash(git *)"), filter.unchecked], [false, 0]);
  // Over the budget now: every further rule counts as matched, unevaluated.
  assertEquals([filter.matches("Bash(rm *)"), filter.matches("Edit(*.ts)"), filter.unchecked], [true, true, 2]);
  assertEquals(filter.compiledRules, 2);
  const again = new IfFilter({ toolName: "Bash", toolInput: { command: "rm -rf x; ls" }, cwd: "/" });
  assertEquals([again.matches("Bash(rm *)"), again.matches("Bash(rm *)"), again.compiledRules], [true, true, 1]);
});

Deno.test("if: the 20 KB rule against the 5,000-command line is linear (issue 21: 15–24 s before)", () => {
  const command = "a;".repeat(5_000);
  const call = { toolName: "Bash", toolInput: { command }, cwd: "/" };
  for (
    const rule of [
      "Bash(" + "a*".repeat(10_000) + ")",
      "Bash(" + "rm -rf /".repeat(2_500) + "*)",
      "Bash(" + "*a".repeat(10_000) + "b)",
      "Edit(" + "*a".repeat(10_000) + ")",
    ]
  ) {
    const t0 = performance.now();
    const filter = new IfFilter(call);
    assertEquals(filter.matches(rule), false, rule.slice(0, 12));
    const ms = performance.now() - t0;
    // Linear: a few million steps. Bounded well under the dispatch budget on a loaded 2-core machine.
    assert(ms < 500, `${rule.slice(0, 12)}… took ${ms.toFixed(0)} ms`);
  }
  // Quadratic shapes of the text cost no more: 10,000 characters in one command.
  const long = { toolName: "Bash", toolInput: { command: "a".repeat(9_999) + "b" }, cwd: "/" };
  const t0 = performance.now();
  assertEquals(new IfFilter(long).matches("Bash(" + "*a".repeat(5_000) + "*c)"), false);
  assert(performance.now() - t0 < 500);
});

Deno.test("if: file rules on a path past the cost bound match unevaluated (the guard runs)", () => {
  const filter = new IfFilter({ toolName: "Edit", toolInput: { file_path: "/r/" + "x".repeat(20_000) }, cwd: "/r" });
  const t0 = performance.now();
  assertEquals(filter.matches("Edit(" + "*?".repeat(5_000) + "y)"), true);
  assertEquals(filter.unchecked, 1);
  assert(performance.now() - t0 < 500);
});
