/**
 * `mind-hooks test --init` (SPEC §16): writes a starter test file, `<project>/.mind/tests/hooks.toml`,
 * with one case per hook in reach — its event taken from the hook, its tool call or field from the hook's
 * matcher — and, as expectations, what the configuration in reach answers it today (that hook's run status
 * and the decision), so that the file passes as written and its author edits it into what the hook should do.
 * @module
 */
import { type ParsedArgs, UsageError } from "../util/args.ts";
import { cliSettings } from "./context.ts";
import { searchStart } from "../engine/settings.ts";
import type { HookHandler } from "../config/discovery.ts";
import { EVENTS } from "../events/registry.ts";
import { join } from "../util/paths.ts";
import { sanitize } from "../util/terminal_text.ts";
import { inPlaceRun } from "../testing/copy_run.ts";
import { type CaseRun, runCase } from "../testing/run_cases.ts";
import type { TestCase } from "../testing/test_file.ts";
import { keyShower, testSession } from "./test.ts";
import { endSession } from "../session/end.ts";

/** A TOML basic string. */
const str = (s: string) => JSON.stringify(s);

/** A tool (or field value) the matcher matches: its first plain alternative (`Edit|Write` → `Edit`), else null. */
export function matchedName(matcher: string | null): string | null {
  return (matcher ?? "").split("|").map((s) => s.trim()).find((s) => /^[A-Za-z_][\w.-]*$/.test(s)) ?? null;
}

/** The starter event of one hook, in short form. */
export function starterEvent(h: HookHandler, name: string): TestCase {
  const c: TestCase = { name, event: h.event };
  const subject = EVENTS[h.event].matcher;
  const matched = matchedName(h.matcher);
  if (subject.kind === "tool") {
    c.tool = matched ?? "Bash";
    if (c.tool === "Bash") c.command = "echo hello";
    else if (/^(Edit|Write|Read|MultiEdit|NotebookEdit)$/.test(c.tool)) c.file_path = "README.md";
  } else if (subject.kind === "field" && matched !== null) c.fields = { [subject.field]: matched };
  if (h.event === "UserPromptSubmit") c.prompt = "hello";
  return c;
}

/** One case as TOML, with what the hook answered today as its expectations. */
function caseToml(c: TestCase, tail: string, status: string | null, decision: string | null): string {
  const lines = [`[[case]]`, `name = ${str(c.name)}`, `event = ${str(c.event!)}`];
  if (c.tool !== undefined) lines.push(`tool = ${str(c.tool)}`);
  if (c.command !== undefined) lines.push(`command = ${str(c.command)}`);
  if (c.file_path !== undefined) lines.push(`file_path = ${str(c.file_path)}`);
  if (c.prompt !== undefined) lines.push(`prompt = ${str(c.prompt)}`);
  for (const [k, v] of Object.entries(c.fields ?? {})) lines.push(`fields = { ${k} = ${JSON.stringify(v)} }`);
  if (status === null) lines.push(`# it did not run on this event: give it one its matcher takes`);
  else {
    if (status === "skipped") lines.push(`# skipped today (not trusted or disabled): mind-hooks review`);
    lines.push(`runs = { ${str(tail)} = ${str(status)} }`, `decision = ${str(decision ?? "none")}`);
  }
  lines.push(
    `# reason = "…"    # a regular expression its reason must match`,
    `# context = ["…"] # text it adds for the model`,
  );
  return lines.join("\n");
}

/** Dispatches a hook's starter case as `mind-hooks test` will: that hook's run status and the decision. */
async function today(run: CaseRun, h: HookHandler, c: TestCase): Promise<[string | null, string | null]> {
  const o = await runCase("", c, run);
  const r = o.observed?.runs?.find((x) => x.key === h.key);
  return [r?.status ?? null, o.observed?.decision ?? null];
}

/** Runs `test --init`; returns the exit code. */
export async function testInit({ options, positionals }: ParsedArgs): Promise<number> {
  if (positionals.length > 0) throw new UsageError("--init takes no test files: it writes .mind/tests/hooks.toml");
  const settings = cliSettings(options);
  const prepared = await inPlaceRun(settings, () => true);
  if (!prepared.ok) throw new UsageError(prepared.error);
  const catalog = prepared.value.catalog;
  const root = catalog.project?.root;
  if (root === undefined) throw new UsageError("no project in reach: --init writes <project>/.mind/tests/hooks.toml");
  const path = join(root, ".mind", "tests", "hooks.toml");
  try {
    await Deno.stat(path);
    throw new UsageError(`${path} exists: edit it, or remove it first`);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  const show = keyShower(catalog);
  const hooks = catalog.handlers.filter((h) => h.layer !== "managed");
  const cases: string[] = [];
  const run = { settings: prepared.value.settings, defaults: { cwd: searchStart(settings), sessionId: testSession() } };
  try {
    for (const h of hooks) {
      const c = starterEvent(h, `${show(h.key)} answers as it does today`);
      const [status, decision] = await today(run, h, c);
      cases.push(caseToml(c, show(h.key), status, decision) + "\n");
    }
  } finally {
    await endSession(settings.home, settings.tempDir, testSession()).catch(() => {});
  }
  const text = [
    `# mind-hooks test: one case per hook in reach, expecting what each answered when --init ran.`,
    `# Edit each into what the hook should do; run them with: mind-hooks test`,
    ``,
    ...cases,
  ].join("\n");
  await Deno.mkdir(join(root, ".mind", "tests"), { recursive: true });
  await Deno.writeTextFile(path, text, { createNew: true });
  console.log(sanitize(`wrote ${path}: ${hooks.length} case${hooks.length === 1 ? "" : "s"}, one per hook`));
  return 0;
}
