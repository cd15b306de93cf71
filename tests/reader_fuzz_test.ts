/**
 * The command reader's fuzz targets (bench/fuzz_reader.ts) with a fixed seed, so CI is deterministic:
 * generated command lines running a project script must be pinned or marked unpinnable, and arbitrary
 * text never throws. `deno task fuzz` runs them with a random seed.
 */
import { READER_TARGETS } from "../bench/fuzz_reader.ts";

/** Inputs per target, and the fixed seed. */
const RUNS = 3000;
const SEED = 21;

for (const target of READER_TARGETS) {
  Deno.test(`fuzz ${target.name}: ${RUNS} generated command lines (seed ${SEED})`, () => {
    target.run(RUNS, SEED);
  });
}
