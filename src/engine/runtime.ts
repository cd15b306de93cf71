/**
 * What a dispatch needs only when some handler runs (or a Stop-like event
 * needs its loop guard): the runners, the output protocol, spilling and the
 * output schemas. The run and fold stages import this module lazily, so a dispatch with
 * no matching hook does not load it (start-up budget, SPEC §15).
 * @module
 */
export { CLAUDE_OUTPUT_SCHEMAS, OUTPUT_SCHEMAS } from "../generated/schemas.ts";
export { readCompletion } from "../output/protocol.ts";
export { runCommand } from "../runner/command.ts";
export { spillIfLarge } from "../output/spill.ts";
export { recordStopDispatch } from "../session/stop_guard.ts";
