/**
 * The help texts, printed from the command table (src/cli/commands.ts): `mind-hooks --help` lists
 * every command with its usage and what it does, the common options and the exit codes;
 * `mind-hooks COMMAND --help` gives the command's usage, its text and every option it takes. Each
 * stands alone: nothing in it points at a file a person with only the binary does not have.
 * @module
 */
import type { OptionSpec } from "../util/args.ts";
import { type CommandEntry, COMMANDS, EXIT_CODES } from "./commands.ts";

/** The value name of a string option in help texts. */
function argName(o: OptionSpec): string {
  if (o.arg) return o.arg;
  return o.value === "dir" ? "DIR" : o.value === "file" ? "FILE" : o.value === "protocol" ? "HOST" : "VALUE";
}

/** `-c, --config KEY=VALUE` / `--json`: an option as typed. */
function optionSyntax(name: string, o: OptionSpec): string {
  const long = `--${name}${o.type === "string" ? ` ${argName(o)}` : ""}`;
  return o.short ? `-${o.short}, ${long}` : long;
}

/** Labels wider than this put their text on the next line, so one long label does not push every text right. */
const LABEL_MAX = 36;

/** Help lines are wrapped at this width. */
const LINE_MAX = 100;

/** `text` in lines of at most `width` characters, broken at spaces. */
function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line !== "" && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  return [...lines, line];
}

/** Rows of `label  text`, the labels padded to one column, the texts wrapped beside it. */
function table(rows: [string, string][], indent = "  "): string[] {
  const width = Math.min(LABEL_MAX, Math.max(0, ...rows.map(([l]) => l.length))) + 2;
  const pad = indent + " ".repeat(width);
  return rows.flatMap(([l, t]) => {
    const text = wrapWords(t, LINE_MAX - pad.length);
    const first = l.length + 2 > width && t !== ""
      ? [`${indent}${l}`, pad + text[0]]
      : [indent + l.padEnd(width) + text[0]];
    return [...first, ...text.slice(1).map((x) => pad + x)].map((x) => x.trimEnd());
  });
}

/** The usage line of a command: `mind-hooks list [--json] [options]`. */
export function usageLine(name: string, entry: CommandEntry): string {
  const opts = entry.usage.includes("[options]") || !Object.keys(entry.options).some((o) => o !== "help")
    ? ""
    : " [options]";
  return `mind-hooks ${name}${entry.usage ? ` ${entry.usage}` : ""}${opts}`;
}

/** Every option a command takes (a command with actions: each action's too), once, in table order. */
function optionsOf(entry: CommandEntry): [string, OptionSpec][] {
  const all = new Map<string, OptionSpec>(Object.entries(entry.options));
  for (const spec of Object.values(entry.actionOptions ?? {})) {
    for (const [n, o] of Object.entries(spec)) if (!all.has(n)) all.set(n, o);
  }
  // --help last, where people look for it.
  const help = all.get("help");
  all.delete("help");
  if (help) all.set("help", help);
  return [...all];
}

/** `mind-hooks NAME --help`. */
export function commandHelp(name: string, entry: CommandEntry): string {
  const out = [`Usage: ${usageLine(name, entry)}`, "", entry.help];
  const opts = optionsOf(entry);
  if (opts.length) out.push("", "Options:", ...table(opts.map(([n, o]) => [optionSyntax(n, o), o.about ?? ""])));
  return out.join("\n");
}

/** The exit-code table as help lines. */
export function exitCodeLines(): string[] {
  return table(EXIT_CODES.map((e) => [e.code, e.meaning]));
}

/** `mind-hooks --help`: every command, the common options, the exit codes. */
export function mainHelp(version: string): string {
  const commands = [...COMMANDS].filter(([, c]) => !c.internal)
    .map(([n, c]): [string, string] => [`mind-hooks ${n}${c.usage ? ` ${c.usage}` : ""}`, c.about]);
  return [
    `mind-hooks ${version} — the lifecycle-hooks engine of the mind agent CLI`,
    "",
    "Usage:",
    ...table(commands),
    "  mind-hooks --version | --help | COMMAND --help",
    "",
    "Common options: --home DIR, --cwd DIR, --profile NAME, -c KEY=VALUE, --hooks-file FILE,",
    "  --requirements FILE, --temp-dir DIR, --dangerously-bypass-hook-trust (see COMMAND --help);",
    "  before or after COMMAND (mind-hooks --home DIR list)",
    "",
    "Exit codes:",
    ...exitCodeLines(),
  ].join("\n");
}
