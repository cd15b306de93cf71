/**
 * The mind-hooks entry point (SPEC §1): loads the command line (src/cli/main.ts) and runs it.
 *
 * `dispatch` runs on every event of every agent session, so start-up is the product's hottest path.
 * The command line is therefore loaded from `src/generated/dispatch_bundle.js`, its pre-built bundle
 * (`deno task bundle:gen`; tests/bundle_test.ts keeps it equal to its sources): one file of JavaScript
 * loads in a fraction of the time of the ~90 TypeScript modules and the npm package it is built from
 * (docs/performance.md). Each command's module stays lazy inside it. `MIND_HOOKS_BUNDLE=off` loads
 * the sources instead (measurement and diagnosis). The specifier is computed, so that Deno reads no
 * other module graph before one is chosen; compiled builds `--include` both (tests/workflows_test.ts).
 *
 * `dispatch` first tries the home's warm daemon through its small client (src/daemon/client.ts), which
 * loads before, and instead of, the command line when the daemon answers.
 *
 * The sandbox Worker runs the loaded module itself, not this one (src/sandbox/launch.ts).
 * @module
 */
type Cli = typeof import("./src/cli/main.ts");

/** The module, relative to this file, that runs the command line. */
export function entryModule(env: { get(name: string): string | undefined }): string {
  return env.get("MIND_HOOKS_BUNDLE") === "off" ? "./src/cli/main.ts" : "./src/generated/dispatch_bundle.js";
}

/** Runs the CLI with `args`; returns the exit code. Never throws. */
export async function main(args: string[]): Promise<number> {
  if (args[0] === "dispatch") {
    // The warm daemon first (SPEC §13 r4): its small client is all an answered event loads.
    try {
      const { viaDaemon } = await import("./src/daemon/client.ts");
      const answered = await viaDaemon(args.slice(1));
      if (answered !== null) return answered;
    } catch {
      // Whatever went wrong with the daemon, the event is dispatched in-process.
    }
  }
  let cli: Cli;
  try {
    cli = await import(new URL(entryModule(Deno.env), import.meta.url).href);
  } catch (e) {
    // One line, terminal-safe: the message may quote a path.
    // deno-lint-ignore no-control-regex
    const why = (e instanceof Error ? e.message : String(e)).replace(/[\x00-\x1f\x7f]+/g, " ");
    console.error(`mind-hooks: internal error: cannot load the command line (${why})`);
    return 2;
  }
  return await cli.main(args);
}

/**
 * `deno task mind-hooks` runs in the directory of deno.json; the task passes the directory it was
 * started from, so that cwd-relative commands (`project trust`, `list`, `trust KEY`) behave as the
 * compiled binary does. The variable is removed so that hooks never see it.
 */
function restoreTaskCwd(): void {
  const from = Deno.env.get("MIND_HOOKS_INVOKED_FROM");
  if (from === undefined) return;
  Deno.env.delete("MIND_HOOKS_INVOKED_FROM");
  try {
    if (from) Deno.chdir(from);
  } catch {
    // The directory vanished: stay where the task put us.
  }
}

if (import.meta.main) {
  restoreTaskCwd();
  Deno.exitCode = await main(Deno.args);
}
