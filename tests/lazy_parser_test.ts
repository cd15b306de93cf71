/**
 * The TOML syntax-tree parser (toml-eslint-parser, src/util/toml_tree.ts) is loaded only on the
 * state-write and position paths, never by a `dispatch` of a healthy configuration (SPEC §15:
 * dispatch start-up). The one door on the dispatch path is the placing of a broken file's problem
 * for its `systemMessages` line (SPEC §6, src/config/problems.ts), taken only when a file has one.
 *
 * Two proofs: the module graph (everything a `dispatch` run can load, dynamic imports included,
 * reaches no import of the parser except through that door, while `trust` and `list` do), and the
 * files a real `dispatch` process running from the sources (`MIND_HOOKS_BUNDLE=off`) opens (strace,
 * where it is installed): the parser's code is never read unless a config.toml has a problem to
 * place. The dispatch bundle holds the parser inlined in a lazily evaluated wrapper
 * (scripts/bundle.ts), so the same graph decides whether a dispatch evaluates it.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import { dispatch, event, makeHome, REPO, writeHooksJson } from "./helpers/cli.ts";
import { dirname, join, normalize } from "node:path";
import { straceWorks, tracedCli } from "./helpers/strace.ts";

const PARSER = "toml-eslint-parser";

/** Specifiers a module loads at run time (static and dynamic; `import type` loads nothing). */
function runtimeImports(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\s+(type\s+)?(?:[^;]*?\s+from\s+)?"([^"]+)"/gms)) {
    if (!m[1]) out.push(m[2]);
  }
  for (const m of text.matchAll(/import\(\s*"([^"]+)"\s*\)/g)) out.push(m[1]);
  return out;
}

/** The one import on the dispatch path that may lead to the parser: a broken file's problem line. */
const PROBLEM_DOOR = { from: join(REPO, "src", "config", "problems.ts"), spec: "./positions.ts" };

/**
 * Every module and package a run that starts at `entries` can load. The command table loads each
 * command's module on demand: from it, only `commands` are followed. `closed` leaves the problem
 * door out.
 */
async function reachable(
  entries: string[],
  commands: string[],
  closed = false,
): Promise<{ modules: Set<string>; packages: Set<string> }> {
  const modules = new Set<string>();
  const packages = new Set<string>();
  const table = join(REPO, "src", "cli", "commands.ts");
  const todo = entries.map((e) => join(REPO, e));
  while (todo.length > 0) {
    const file = todo.pop()!;
    if (modules.has(file)) continue;
    modules.add(file);
    const text = await Deno.readTextFile(file);
    for (const spec of runtimeImports(text)) {
      if (closed && file === PROBLEM_DOOR.from && spec === PROBLEM_DOOR.spec) continue;
      if (!spec.startsWith(".")) {
        packages.add(spec.replace(/^npm:/, "").replace(/(.)@.*$/, "$1"));
        continue;
      }
      const target = normalize(join(dirname(file), spec));
      const isCommand = file === table && text.includes(`import("${spec}")`);
      if (isCommand && !commands.includes(spec)) continue;
      todo.push(target);
    }
  }
  return { modules, packages };
}

Deno.test("lazy parser: nothing a dispatch run can load imports the TOML syntax tree but the problem door; trust and list do", async () => {
  const run = await reachable(["src/cli/main.ts"], ["./dispatch_command.ts"], true);
  assert(run.modules.has(join(REPO, "src", "cli", "dispatch_command.ts")), "the walk reaches the dispatch command");
  assert(run.modules.has(join(REPO, "src", "config", "discovery.ts")), "and discovery");
  assertEquals(run.packages.has(PARSER), false, "dispatch can load the TOML syntax tree");
  assertEquals([...run.modules].filter((m) => m.endsWith("toml_tree.ts")), []);
  // The door is the only way: with it open the walk reaches the parser.
  assertEquals(
    (await reachable(["src/cli/main.ts"], ["./dispatch_command.ts"])).packages.has(PARSER),
    true,
    "the problem door",
  );
  // The positive control: the walk does see the parser where it is used.
  assertEquals((await reachable(["src/cli/main.ts"], ["./state.ts"])).packages.has(PARSER), true, "trust");
  assertEquals((await reachable(["src/cli/main.ts"], ["./list.ts"])).packages.has(PARSER), true, "list");
});

const HAS_STRACE = await straceWorks();
if (!HAS_STRACE) console.log("lazy_parser_test: the strace proof is skipped (no strace here)");

/** The parser's code files that `mind-hooks ARGS` (every thread of it) opened, by strace. */
async function parserFilesOpened(args: string[], stdin = ""): Promise<string[]> {
  // From sources, so that each module is its own file; no warm daemon: strace -f would follow the one a dispatch
  // starts, and wait for it.
  const run = await tracedCli(args, stdin, { MIND_HOOKS_BUNDLE: "off", MIND_HOOKS_DAEMON: "off" });
  assertEquals(run.code, 0, run.stderr);
  return run.opened.filter((p) => p.includes(`/${PARSER}/`) && /\.m?js$/.test(p));
}

Deno.test({
  name: "lazy parser: a real dispatch never opens the parser's code; a state write does",
  ignore: !HAS_STRACE,
}, async () => {
  await using home = await makeHome();
  await writeHooksJson(home.path, {
    PostToolUse: [{ matcher: "Edit", hooks: [{ type: "command", command: "true" }] }],
  });
  const input = JSON.stringify(event("PreToolUse"));
  assertEquals(await parserFilesOpened(["dispatch", "--home", home.path], input), []);
  // The control: disabling a hook writes config.toml through the syntax tree.
  assert((await parserFilesOpened(["disable", "--all", "--home", home.path, "--cwd", home.path])).length > 0);
  // With state in config.toml now, a dispatch still does not load it.
  assertEquals((await dispatch(home.path, event("PreToolUse"))).runs, []);
  assertEquals(await parserFilesOpened(["dispatch", "--home", home.path], input), []);
  // Only a problem to place opens it: a bad matcher in config.toml gets its line and column (SPEC §6).
  await Deno.writeTextFile(
    join(home.path, "config.toml"),
    `[[hooks.PreToolUse]]\nmatcher = "("\nhooks = [{ type = "command", command = "true" }]\n`,
  );
  assert((await parserFilesOpened(["dispatch", "--home", home.path], input)).length > 0);
});
