/**
 * Shared by the core engine's end-to-end tests (tests/dispatch_e2e_test.ts, tests/dispatch_e2e_run_test.ts).
 * @module
 */
import type { DispatchResult } from "./cli.ts";

/** The flag that runs every hook whatever its trust. */
export const BYPASS = "--dangerously-bypass-hook-trust";

/** The warnings of `code` in a result. */
export function warningsOf(result: DispatchResult, code: string): DispatchResult["warnings"] {
  return result.warnings.filter((w) => w.code === code);
}
