/**
 * The output protocol (SPEC §8), event-agnostic part: exit codes, plain vs
 * JSON stdout, schema validation; the event module supplies the semantic rules.
 * @module
 */
import type { EventModule, HandlerOutcome, JsonObject } from "../events/types.ts";
import type { RawCompletion } from "../runner/types.ts";
import { formatIssue, type JsonSchema, validateJson } from "../schema/validate.ts";
import { nestsTooDeep, TOO_DEEP } from "../util/nesting.ts";

function firstLine(text: string, max = 200): string {
  const line = text.trim().split(/[\r\n\u2028\u2029]/, 1)[0] ?? "";
  return line.length > max ? line.slice(0, max) + "…" : line;
}

/** The reason text for a completion that did not exit normally, or null. */
function abnormalEnd(raw: RawCompletion): string | null {
  // One line (SPEC §8 reasons): an MCP transport error may span lines.
  if (raw.spawnError !== null) return `spawn failed: ${firstLine(raw.spawnError, 500) || "unknown error"}`;
  if (raw.timedOut) return `timeout after ${raw.timeoutSec}s`;
  if (raw.exitCode === null) {
    return `killed by signal ${raw.signal ?? "unknown"}`;
  }
  return null;
}

/**
 * Reads one handler's completion for `event`. `outputSchema` is the event's
 * generated output JSON Schema.
 */
export function readCompletion(
  event: EventModule,
  outputSchema: JsonSchema,
  raw: RawCompletion,
): HandlerOutcome {
  const abnormal = abnormalEnd(raw);
  if (abnormal) {
    return {
      status: "failed",
      reason: abnormal,
      systemMessage: stderrHint(raw),
    };
  }
  if (raw.exitCode === 2) {
    if (!event.canBlock) {
      return {
        status: "failed",
        reason: "exit 2",
        systemMessage: stderrHint(raw),
      };
    }
    const reason = raw.stderr.trim();
    if (reason === "") {
      return {
        status: "failed",
        reason: "exit 2 without a reason on stderr — nothing was blocked",
      };
    }
    return { status: "blocked", effect: { blockReason: reason } };
  }
  if (raw.exitCode !== 0) {
    return {
      status: "failed",
      reason: `exit ${raw.exitCode}`,
      systemMessage: stderrHint(raw),
    };
  }
  const text = raw.stdout;
  const trimmed = text.trim();
  if (trimmed === "") return { status: "completed", effect: {} };
  if (trimmed[0] === "{" || trimmed[0] === "[") {
    if (raw.stdoutTruncated) {
      return {
        status: "failed",
        reason: "invalid JSON: output exceeded the 1 MiB capture limit",
      };
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch (e) {
      return { status: "failed", reason: `invalid JSON: ${jsonErrorWhere(e)}` };
    }
    if (nestsTooDeep(parsed)) {
      // What reads it next (rewrites, the adapter's mappings, logging) must never meet such depth.
      return { status: "failed", reason: `invalid JSON: ${TOO_DEEP}` };
    }
    if (
      parsed === null || typeof parsed !== "object" || Array.isArray(parsed)
    ) {
      return {
        status: "failed",
        reason: "invalid JSON: expected a JSON object",
      };
    }
    const issue = validateJson(outputSchema, parsed);
    if (issue) {
      return {
        status: "failed",
        reason: `invalid ${event.name} output: ${formatIssue(issue)}`,
      };
    }
    return event.interpret(parsed as JsonObject);
  }
  switch (event.plainStdout) {
    case "context":
      return {
        status: "completed",
        effect: { additionalContext: text.replace(/\s+$/, "") },
      };
    case "ignore":
      return { status: "completed", effect: {} };
    case "invalid":
      return {
        status: "failed",
        reason: `${event.name} hooks must answer JSON or nothing; got plain text`,
      };
  }
}

function stderrHint(raw: RawCompletion): string | undefined {
  const line = firstLine(raw.stderr);
  return line === "" ? undefined : line;
}

/**
 * Where JSON.parse failed, without V8's excerpt of the text: that excerpt quotes hook output, which
 * may hold secrets and would land in the result and the observation log.
 */
export function jsonErrorWhere(e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  const pos = /line (\d+) column (\d+)/.exec(msg) ?? /position (\d+)/.exec(msg);
  if (pos && pos.length === 3) return `does not parse (line ${pos[1]}, column ${pos[2]})`;
  if (pos) return `does not parse (at character ${pos[1]})`;
  if (/end of (JSON )?input/i.test(msg)) return "does not parse (unexpected end of input)";
  return "does not parse";
}
