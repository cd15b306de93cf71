/**
 * The `if` filter's reader as a walk over the command reader's syntax tree (src/matching/bash_split.ts
 * over src/shell/shell_syntax.ts): what the one lexer reads the filter reads the same way, and the
 * forms it cannot read statically (an expansion, a syntax error) match every rule (null).
 */
import { assertEquals } from "../../tests/helpers/assert.ts";
import { bashSubjects, simpleCommands } from "./bash_split.ts";

Deno.test("if reader: simple commands across operators, groups, keywords and redirections", () => {
  assertEquals(simpleCommands("cd x && (git push; echo done) | tee log 2>&1 > out"), [
    "cd x",
    "git push",
    "echo done",
    "tee log",
  ]);
  assertEquals(simpleCommands("if true; then rm -rf /; fi # it's a comment with 'quotes' and $x"), [
    "true",
    "rm -rf /",
  ]);
  assertEquals(simpleCommands("case $x in a) ls;; esac"), null);
  assertEquals(simpleCommands("case y in a) ls;; b) git push;; esac"), ["ls", "git push"]);
});

Deno.test("if reader: what cannot be read statically, and syntax errors, match every rule (null)", () => {
  for (
    const line of [
      "echo $HOME",
      "echo `id`",
      "echo $'x'",
      "cat <(ls)",
      "echo {a,b}",
      "*.sh",
      "echo 'open",
      "echo >",
      "ls <| x",
    ]
  ) {
    assertEquals([line, bashSubjects(line)], [line, null]);
  }
  // A backslash ending the line escapes nothing: no empty word.
  assertEquals(simpleCommands("git push \\"), ["git push"]);
  // An escaped `#` is a word, not a comment.
  assertEquals(simpleCommands("echo \\#x"), ["echo #x"]);
});
