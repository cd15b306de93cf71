/** The position scanners of list and review (src/config/positions.ts) take deep text without a stack overflow. */
import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import { jsonOffsets, tomlOffsets } from "./positions.ts";

Deno.test("deep: the position scanners of list and review take deep text (a file that changed since discovery)", async () => {
  const deepJson = `{"hooks": ${"[".repeat(50_000)}${"]".repeat(50_000)}}`;
  assertEquals((await jsonOffsets(deepJson)).size, 0);
  assert(tomlOffsets(`x = ${"[".repeat(50_000)}${"]".repeat(50_000)}\n`).size >= 0);
});
