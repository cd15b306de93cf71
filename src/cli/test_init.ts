/**
 * `mind-hooks test --init` (SPEC §16): writes a starter test file, `<project>/.mind/tests/hooks.toml`,
 * with one case per hook in reach, its event taken from the hook and its tool call from the hook's
 * matcher, so that each case reaches its hook; what the hook should answer is left for its author.
 * @module
 */
import { type ParsedArgs, UsageError } from "../util/args.ts";
import { cliSettings } from "./context.ts";
import { configOptionsOf, searchStart } from "../engine/settings.ts";
import { type HookHandler, loadCatalog } from "../config/discovery.ts";
import { EVENTS } from "../events/registry.ts";
import { join } from "../util/paths.ts";
import { sanitize } from "../util/terminal_text.ts";
import { keyShower } from "./test.ts";

/** A TOML basic string. */
const str = (s: string) => JSON.stringify(s);

/** A tool the matcher matches: its first plain alternative (`Edit|Write` → `Edit`), else `Bash`. */
export function toolOf(matcher: string | null): string {
  const plain = (matcher ?? "").split("|").map((s) => s.trim()).find((s) => /^[A-Za-z_][\w.-]*$/.test(s));
  return plain ?? "Bash";
}

/** The starter case of one hook (`tail`: its key as people see it). */
export function starterCase(h: HookHandler, tail: string): string {
  const lines = [`[[case]]`, `name = ${str(`${tail} answers as it should`)}`, `event = ${str(h.event)}`];
  if (EVENTS[h.event].matcher.kind === "tool") {
    const tool = toolOf(h.matcher);
    lines.push(`tool = ${str(tool)}`);
    if (tool === "Bash") lines.push(`command = "echo hello"`);
    else if (/^(Edit|Write|Read|MultiEdit|NotebookEdit)$/.test(tool)) lines.push(`file_path = "README.md"`);
  } else if (h.event === "UserPromptSubmit") lines.push(`prompt = "hello"`);
  const subject = EVENTS[h.event].matcher;
  if (subject.kind === "field" && h.matcher !== null && toolOf(h.matcher) === h.matcher.split("|")[0].trim()) {
    lines.push(`fields = { ${subject.field} = ${str(toolOf(h.matcher))} }`);
  }
  lines.push(
    `runs = { ${str(tail)} = "completed" }`,
    `# decision = "deny"      # what it should decide: none, allow, ask, deny, block, stop`,
    `# reason = "not allowed" # a regular expression its reason must match`,
    `# context = ["…"]        # text it should add for the model`,
  );
  return lines.join("\n");
}

/** Runs `test --init`; returns the exit code. */
export async function testInit({ options, positionals }: ParsedArgs): Promise<number> {
  if (positionals.length > 0) throw new UsageError("--init takes no test files: it writes .mind/tests/hooks.toml");
  const settings = cliSettings(options);
  const loaded = await loadCatalog(configOptionsOf(settings, searchStart(settings)));
  if (!loaded.ok) throw new UsageError(loaded.error);
  const catalog = loaded.value;
  const root = catalog.project?.root;
  if (root === undefined) throw new UsageError("no project in reach: --init writes <project>/.mind/tests/hooks.toml");
  const path = join(root, ".mind", "tests", "hooks.toml");
  const show = keyShower(catalog);
  const hooks = catalog.handlers.filter((h) => h.layer !== "managed");
  const text = [
    `# mind-hooks test: one case per hook in reach (mind-hooks test --init). Run: mind-hooks test`,
    `# Each case is an event (short form here; input = {…} for a whole one) and what the result must hold.`,
    ``,
    ...hooks.map((h) => starterCase(h, show(h.key)) + "\n"),
  ].join("\n");
  await Deno.mkdir(join(root, ".mind", "tests"), { recursive: true });
  try {
    await Deno.writeTextFile(path, text, { createNew: true });
  } catch (e) {
    if (e instanceof Deno.errors.AlreadyExists) throw new UsageError(`${path} exists: edit it, or remove it first`);
    throw e;
  }
  console.log(sanitize(`wrote ${path}: ${hooks.length} case${hooks.length === 1 ? "" : "s"}, one per hook`));
  return 0;
}
