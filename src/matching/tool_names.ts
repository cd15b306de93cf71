/**
 * Tool names (SPEC §4, §5): the fixed compatibility aliases, and the
 * normalization of a host's tool call into the form hooks see (`Bash` /
 * `apply_patch` with `tool_input.command`) and back.
 * @module
 */
import type { JsonObject } from "../util/json.ts";

// Maps, not object literals: tool names come from the model, and `toString` must not find a method.
const SHELL_TOOLS: ReadonlyMap<string, string> = new Map([
  ["shell_command", "command"],
  ["exec_command", "cmd"],
  ["write_stdin", "chars"],
]);
const PATCH_TOOLS: ReadonlyMap<string, string> = new Map([["apply_patch", "input"]]);

const ALIASES: ReadonlyMap<string, readonly string[]> = new Map([
  ["shell_command", ["Bash"]],
  ["exec_command", ["Bash"]],
  ["write_stdin", ["Bash"]],
  ["Bash", ["shell_command", "exec_command", "write_stdin"]],
  ["apply_patch", ["Edit", "Write"]],
  ["Edit", ["apply_patch"]],
  ["Write", ["apply_patch"]],
  ["spawn_agent", ["Agent"]],
  ["Agent", ["spawn_agent"]],
]);

/** The names a tool hook's matcher is tested against: the local name and its aliases. */
export function toolMatchSubjects(toolName: string): string[] {
  return [toolName, ...(ALIASES.get(toolName) ?? [])];
}

/** POSIX shell quoting of one word (safe words stay bare). */
export function shellQuote(word: string): string {
  if (word !== "" && /^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return "'" + word.replaceAll("'", `'"'"'`) + "'";
}

/** An argv array as one POSIX command line. */
export function joinArgv(argv: readonly unknown[]): string {
  return argv.map((a) => shellQuote(String(a))).join(" ");
}

/** Where the executable text of a local tool lives, when it is a shell or patch tool. */
function commandField(toolName: string): string | undefined {
  return SHELL_TOOLS.get(toolName) ?? PATCH_TOOLS.get(toolName);
}

/**
 * The compatibility form hooks see: shell tools become `Bash`, the patch tool
 * `apply_patch`, both with the executable text in `tool_input.command`; other
 * fields pass through; other tools are unchanged.
 */
export function toCompatTool(
  toolName: string,
  toolInput: JsonObject,
): { tool_name: string; tool_input: JsonObject } {
  const field = commandField(toolName);
  if (!field) return { tool_name: toolName, tool_input: toolInput };
  const { [field]: source, ...rest } = toolInput;
  const command = Array.isArray(source)
    ? joinArgv(source)
    : typeof source === "string"
    ? source
    : source === undefined
    ? ""
    : JSON.stringify(source);
  const name = SHELL_TOOLS.has(toolName) ? "Bash" : "apply_patch";
  return { tool_name: name, tool_input: { ...rest, command } };
}

/**
 * Converts a hook's `updatedInput` (compatibility form) back into the local
 * parameters of the tool the host called: `command` goes back to `cmd`,
 * `input`, `chars`… An argv-array original gets `["bash", "-lc", text]` since
 * the rewritten text is a shell command line.
 */
export function fromCompatInput(
  toolName: string,
  original: JsonObject,
  updated: JsonObject,
): JsonObject {
  const field = commandField(toolName);
  if (!field || !Object.hasOwn(updated, "command")) return updated;
  const { command, ...rest } = updated;
  const value = Array.isArray(original[field]) && typeof command === "string" ? ["bash", "-lc", command] : command;
  return { ...rest, [field]: value };
}
