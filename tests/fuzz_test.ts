/**
 * Fuzzing (SPEC §15 "Reliability"): a small, fast sample of each fast-check target of bench/fuzz.ts
 * — the stdin event parser, the TOML and JSONC config parsers with handler collection, raw handler
 * tables, and the hook-output parser. No exception may escape and every rejection must be one clear
 * line. `deno run -A bench/fuzz.ts` runs the same targets at 100,000 inputs each.
 */
import { assertOneLine, fuzzTarget, type Target, TARGETS } from "../bench/fuzz.ts";
import { assert, assertThrows } from "./helpers/assert.ts";
import { parseEventText } from "../src/engine/input.ts";
import { parseJsoncText } from "../src/config/files.ts";

/** Inputs per target: enough to find shallow bugs in well under a second each. */
const RUNS = 1500;
/**
 * The seed of every target here: `deno task test` is deterministic (SPEC §15: fixed seeds in CI;
 * random ones belong to `deno task fuzz`, which prints them). A failure names its seed.
 */
const SEED = 20261201;

for (const target of TARGETS) {
  Deno.test(`fuzz ${target.name}: ${RUNS} generated inputs (seed ${SEED}), no exception, one-line rejections`, async () => {
    await fuzzTarget(target, RUNS, SEED);
  });
}

Deno.test("fuzz regression: seed 822588264 of the jsonc target (a warning quoting U+2028 was two lines)", async () => {
  await fuzzTarget(TARGETS.find((t) => t.name === "jsonc")!, 1500, 822588264);
});

Deno.test("fuzz regression: a JSONC warning quoting U+2028 and U+2029 stays on one line", async () => {
  for (const text of ["{\u2028}", '{"a": 1,\u2029}', "[\u2028\u2029]"]) {
    const r = await parseJsoncText(text, "hooks.json");
    assert(!r.ok, text);
    assertOneLine(r.error.message, "JSONC warning");
  }
});

Deno.test("fuzz: a failing property names its seed", async () => {
  const failing: Target = { name: "always-fails", arb: TARGETS[0].arb, check: () => Promise.reject(new Error("boom")) };
  try {
    await fuzzTarget(failing, 5, 42);
  } catch (e) {
    assert(String(e).includes("fuzz always-fails failed with seed 42:"), String(e));
    return;
  }
  throw new Error("the failing property passed");
});

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
