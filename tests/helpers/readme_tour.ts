/**
 * The README's tour as data, for the two tests that run it: tests/readme_tour_test.ts (every block but the
 * agent's, on every test run) and tests/interop/readme_tour.ts (every block, the last one on the real Claude
 * Code). The blocks are read from the README exactly as printed, and run in order in one POSIX shell, each step
 * marked on stdout and stderr alike so that a test can read what each step printed.
 * @module
 */

/** The README section that is the tour. */
export const TOUR_HEADING = "A 5-minute tour";

/** The number of the tour's `sh` blocks: steps 0–8, one block each; the last one talks to an agent. */
export const TOUR_BLOCKS = 9;

/**
 * The `sh` blocks of the README section `heading`, in order. A block indented in the raw Markdown (inside a list
 * item) is refused: copied from a terminal view of the file, its heredocs' end markers would keep their indentation
 * and never end the heredoc.
 */
export function shellBlocks(readme: string, heading: string): string[] {
  const start = readme.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`README has no "## ${heading}" section`);
  const end = readme.indexOf("\n## ", start + 1);
  const section = readme.slice(start, end < 0 ? undefined : end);
  const indented = /^[ \t]+```.*$/m.exec(section);
  if (indented) throw new Error(`the "${heading}" section has an indented code block: ${indented[0].trim()}`);
  return [...section.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
}

const marker = (i: number) => `@@tour-block-${i}@@`;

/** One shell script running `blocks` in order (`set -e`: a failing command ends the tour), each step marked. */
export function tourScript(blocks: string[]): string {
  return ["set -e", ...blocks.flatMap((b, i) => [`echo '${marker(i)}'; echo '${marker(i)}' >&2`, b])].join("\n");
}

/** What step `i` of a {@link tourScript} printed on one stream. */
export function tourStep(output: string, i: number): string {
  const after = output.split(marker(i))[1];
  if (after === undefined) throw new Error(`step ${i} never started:\n${output.slice(-2000)}`);
  return after.split(marker(i + 1))[0];
}

/** The caches a user of this machine has, so that npx and Deno find what they already fetched. */
export async function userCaches(): Promise<{ npm_config_cache: string; DENO_DIR: string }> {
  const output = async (cmd: string, args: string[]) =>
    new TextDecoder().decode(
      (await new Deno.Command(cmd, { args, stdout: "piped", stderr: "null" }).output()).stdout,
    ).trim();
  return {
    npm_config_cache: await output("npm", ["config", "get", "cache"]),
    DENO_DIR: Deno.env.get("DENO_DIR") ??
      JSON.parse(await output(Deno.execPath(), ["info", "--json"])).denoDir as string,
  };
}

/** True when `program` is on PATH. */
export async function onPath(program: string): Promise<boolean> {
  try {
    return (await new Deno.Command("sh", { args: ["-c", `command -v ${program}`], stdout: "null" }).output()).success;
  } catch {
    return false;
  }
}
