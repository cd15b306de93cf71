/**
 * `serve` frees what it reads (SPEC §15: memory stays bounded): the chunks of stdin it has framed
 * into lines are garbage once handled, while the server keeps reading. A child process with
 * `--expose-gc` (tests/helpers/serve_retention.ts) feeds 1 MiB chunks and counts how many the
 * collector freed. `deno task bench:memory` measures the resident memory of a long `serve` run.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import { makeHome } from "./helpers/cli.ts";

const SCRIPT = decodeURIComponent(new URL("./helpers/serve_retention.ts", import.meta.url).pathname);
const CONFIG = decodeURIComponent(new URL("../deno.json", import.meta.url).pathname);

Deno.test("serve: the input chunks it has read are freed while it keeps reading (no retention per read)", async () => {
  await using home = await makeHome();
  const out = await new Deno.Command("prlimit", {
    // Bounded: the child may not fork, and not outlive a minute.
    args: [
      "--cpu=60",
      Deno.execPath(),
      "run",
      "-A",
      "--config",
      CONFIG,
      "--v8-flags=--expose-gc",
      SCRIPT,
      home.path,
      "200",
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(out.stderr);
  assertEquals(out.code, 0, stderr);
  const report = JSON.parse(new TextDecoder().decode(out.stdout)) as { chunks: number; freed: number };
  assertEquals(report.chunks, 200);
  // All but the chunk in hand (and a few the stream's queue may still hold) are garbage.
  assert(report.freed >= 190, `only ${report.freed} of 200 chunks were freed: serve keeps what it read`);
});
