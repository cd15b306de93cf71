/**
 * The module cache of the Deno running the tests, for children started with another HOME (or with the
 * minimal environment the MCP SDK gives stdio servers): they must not fetch every package again.
 * @module
 */

let cachedDenoDir: string | undefined;

/** The module cache of the Deno running the tests (as `deno info --json` reports it). */
export function denoDir(): string {
  if (cachedDenoDir === undefined) {
    const out = new Deno.Command(Deno.execPath(), { args: ["info", "--json"], stdout: "piped", stderr: "null" })
      .outputSync();
    cachedDenoDir = JSON.parse(new TextDecoder().decode(out.stdout)).denoDir as string;
  }
  return cachedDenoDir;
}
