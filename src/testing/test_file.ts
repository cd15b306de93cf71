/**
 * The `mind-hooks test` file (SPEC §16): the zod schema of one TOML test file — its `[[case]]` tables,
 * each an event (whole, `input = {…}`, or in short form) and the expectations on the dispatch result —
 * the single source of the shape; the TypeScript type is inferred from it. Used by `mind-hooks test`
 * only, never on the dispatch path.
 * @module
 */
import type * as zod from "zod";
import type { Zod } from "../events/types.ts";
import { EVENT_NAMES } from "../events/names.ts";
import { HOSTS } from "../adapter/host_names.ts";

/** The decisions a case may expect: the §9 decisions, and `none` for no decision. */
export const EXPECTED_DECISIONS = ["none", "allow", "ask", "deny", "block", "stop"] as const;

/** The `runs` statuses a case may expect of a hook (SPEC §9). */
export const RUN_STATUSES = ["completed", "blocked", "failed", "skipped", "started"] as const;

/** Builds the zod schema of one test file. */
export function testFileSchema(z: Zod) {
  const json = z.record(z.string(), z.unknown());
  const testCase = z.strictObject({
    name: z.string().min(1),
    /** Through this host's adapter protocol (`dispatch --protocol HOST`) instead of mind's. */
    host: z.enum(HOSTS).optional(),
    // The event, whole (SPEC §5 form; with `host`, the host's own hook input) …
    input: json.optional(),
    // … or in short form, the rest filled in as the hosts fill it.
    event: z.enum(EVENT_NAMES).optional(),
    tool: z.string().optional(),
    command: z.string().optional(),
    file_path: z.string().optional(),
    prompt: z.string().optional(),
    tool_input: json.optional(),
    tool_response: z.unknown().optional(),
    cwd: z.string().optional(),
    session_id: z.string().optional(),
    /** Any other §5 field of the event (`source`, `trigger`, `reason`, `agent_type`, …). */
    fields: json.optional(),
    // Expectations on the dispatch result (SPEC §9).
    decision: z.enum(EXPECTED_DECISIONS).optional(),
    /** A regular expression the result's reason must match. */
    reason: z.string().optional(),
    /** Substrings that must each appear in the additional context. */
    context: z.array(z.string()).optional(),
    continue: z.boolean().optional(),
    /** The fields the rewritten tool input must hold (each equal). */
    updatedInput: json.optional(),
    /** Hook key (or a unique tail of one) → the status its run must have. */
    runs: z.record(z.string(), z.enum(RUN_STATUSES)).optional(),
  });
  return z.strictObject({ case: z.array(testCase).min(1) });
}

/** One test file as parsed. */
export type TestFile = zod.infer<ReturnType<typeof testFileSchema>>;

/** One `[[case]]` of a test file. */
export type TestCase = TestFile["case"][number];
