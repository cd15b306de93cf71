/**
 * Which modules a real `mind-hooks` run evaluated, from V8's coverage (`deno run --coverage`): Deno
 * reads every module a dynamic import names when it builds the graph, so only what ran proves that
 * a code path was never paid for (tests/explain_test.ts). The run loads the sources
 * (`MIND_HOOKS_BUNDLE=off`): the dispatch bundle is one file, built with the same lazy boundaries
 * (scripts/bundle.ts), so what the sources leave unevaluated the bundle leaves unevaluated too.
 * @module
 */
import { assertEquals } from "./assert.ts";
import { REPO } from "./cli.ts";
import { join } from "node:path";

/** The `src/`-relative paths of the modules `mind-hooks ARGS` evaluated (main thread), `stdin` on its stdin. */
export async function modulesEvaluated(args: string[], stdin = ""): Promise<string[]> {
  const dir = await Deno.makeTempDir({ prefix: "mind-hooks-coverage-" });
  try {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-q", "-P", "--no-prompt", `--coverage=${dir}`, "--config", join(REPO, "deno.json")]
        .concat([join(REPO, "main.ts"), ...args]),
      env: {
        MIND_REQUIREMENTS: "/nonexistent/mind-hooks-tests/requirements.toml",
        SHELL: "/bin/sh",
        MIND_HOOKS_BUNDLE: "off",
        // Evaluated here, in-process: a warm daemon would evaluate them in its own process.
        MIND_HOOKS_DAEMON: "off",
      },
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(stdin));
    await w.close();
    const out = await child.output();
    assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
    const src = `file://${join(REPO, "src")}/`;
    const urls: string[] = [];
    for await (const e of Deno.readDir(dir)) {
      const url = JSON.parse(await Deno.readTextFile(join(dir, e.name))).url as string;
      if (url.startsWith(src)) urls.push(url.slice(src.length));
    }
    return urls.sort();
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}
