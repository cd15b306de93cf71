/**
 * Reading the observation log in tests (tests/log_test.ts, src/log/observation_test.ts).
 * @module
 */
import { logPath } from "../../src/log/observation.ts";

/** Every record of `home`'s observation log, parsed. */
export function readLog(home: string): Record<string, unknown>[] {
  return Deno.readTextFileSync(logPath(home)).trimEnd().split("\n").map((l) => JSON.parse(l));
}
