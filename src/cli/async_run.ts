/**
 * `mind-hooks __async-run --home H JOB...`: the detached runner that owns a
 * one-shot dispatch's async handlers (SPEC §7.2). Internal; not in --help.
 * @module
 */
import type { ParsedArgs } from "../util/args.ts";
import { runAsyncJobs } from "../session/async.ts";

/** Runs the job files given. */
export async function asyncRunCommand({ positionals }: ParsedArgs): Promise<number> {
  await runAsyncJobs(positionals);
  return 0;
}
