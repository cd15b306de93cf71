/**
 * The words of the shell the command reader (src/shell/shell_reader.ts) looks for: reserved words, the
 * openers and closers of compound commands, redirections, an assignment at the start of a word, and
 * the one spelling of a path the reader keeps.
 * @module
 */
import type { Part, Word } from "./shell_syntax.ts";

/** Reserved words (a simple command's first word only). */
export const KEYWORDS = new Set([
  "if",
  "then",
  "elif",
  "else",
  "fi",
  "while",
  "until",
  "do",
  "done",
  "for",
  "select",
  "case",
  "esac",
  "{",
  "}",
  "!",
  "[[",
  "function",
]);
export const OPENERS = new Set(["if", "while", "until", "{", "select"]);
export const CLOSERS = new Set(["fi", "done", "}"]);
export const REDIRECTS = new Set(["<", ">", ">>", ">|", "<>", "<&", ">&", "&>", "&>>", "<<", "<<-", "<<<"]);

/** `NAME=value` / `NAME+=value` at the start of a word (NAME unquoted), with the value's parts. */
export function assignmentOf(w: Word): { name: string; append: boolean; parts: Part[] } | null {
  const first = w.parts[0];
  if (first?.k !== "lit" || first.q) return null;
  const m = /^([A-Za-z_]\w*)(\+?)=/.exec(first.text);
  if (!m) return null;
  const rest = first.text.slice(m[0].length);
  const parts: Part[] = rest === "" ? w.parts.slice(1) : [{ k: "lit", text: rest, q: false }, ...w.parts.slice(1)];
  // `~` right after `=` is the home too.
  if (rest.startsWith("~") && (rest.length === 1 || rest[1] === "/")) {
    parts[0] = { k: "lit", text: rest.slice(1), q: false };
    parts.unshift({ k: "tilde", user: "" });
  }
  return { name: m[1], append: m[2] === "+", parts };
}

/** `.` segments and doubled slashes are the same file to the kernel (`..` is left to it: links). */
export function normalPath(raw: string): string {
  return raw.includes("/.") || raw.includes("//") ? raw.replace(/\/(?:\.(?=\/|$))+/g, "").replace(/\/{2,}/g, "/") : raw;
}
