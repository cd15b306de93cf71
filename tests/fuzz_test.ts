/**
 * Fuzzing (SPEC §15 "Reliability"): a small, fast sample of each fast-check target of bench/fuzz.ts
 * — the stdin event parser, the TOML and JSONC config parsers with handler collection, raw handler
 * tables, and the hook-output parser. No exception may escape and every rejection must be one clear
 * line. `deno run -A bench/fuzz.ts` runs the same targets at 100,000 inputs each.
 */
import { assertOneLine, fuzzTarget, TARGETS } from "../bench/fuzz.ts";
import { assert, assertThrows } from "./helpers/assert.ts";
import { parseEventText } from "../src/dispatch/input.ts";

/** Inputs per target: enough to find shallow bugs in well under a second each. */
const RUNS = 1500;

for (const target of TARGETS) {
  Deno.test(`fuzz ${target.name}: ${RUNS} generated inputs, no exception, one-line rejections`, async () => {
    await fuzzTarget(target, RUNS);
  });
}

Deno.test("fuzz: the one-line check itself rejects line breaks, empty and oversized messages", () => {
  assertThrows(() => assertOneLine("a\nb", "x"));
  assertThrows(() => assertOneLine("a\rb", "x"));
  assertThrows(() => assertOneLine("a\u2028b", "x"));
  assertThrows(() => assertOneLine("  ", "x"));
  assertThrows(() => assertOneLine("x".repeat(5000), "x"));
  assertOneLine("stdin is not valid JSON: at character 3", "x");
});

Deno.test("fuzz regression: a JSON error quoting a line break stays on one line", () => {
  const r = parseEventText("\n\u0000");
  assert(!r.ok);
  assertOneLine(r.error, "stdin error");
});
