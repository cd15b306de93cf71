/**
 * Helpers of the unit tests beside each event module (`src/events/<event>_test.ts`): whole-outcome
 * tables for `interpret` (one output object → the exact HandlerOutcome), for the output schema (the
 * SPEC §8 rules the schema enforces before `interpret` runs), and aggregation items.
 * @module
 */
import { assertEquals } from "./assert.ts";
import { INPUT_SCHEMAS, OUTPUT_SCHEMAS } from "../../src/generated/schemas.ts";
import { formatIssue, validateJson } from "../../src/schema/validate.ts";
import type { JsonObject } from "../../src/util/json.ts";
import type { AggregationItem, EventModule, HandlerEffect, HandlerOutcome } from "../../src/events/types.ts";

/** One answer of a handler and what reading it must give. */
export type InterpretCase = { output: JsonObject; outcome: HandlerOutcome };

/** One answer the output schema refuses, with the one-line issue the handler fails with. */
export type SchemaCase = { output: JsonObject; issue: string };

/** The output schema's verdict on `output` for `event`: null when it conforms, else the one-line issue. */
export function schemaIssue(event: EventModule, output: JsonObject): string | null {
  const issue = validateJson(OUTPUT_SCHEMAS[event.name], output);
  return issue ? formatIssue(issue) : null;
}

/** The input schema's verdict on `input` for `event` (SPEC §5): null when it conforms, else the one-line issue. */
export function inputIssue(event: EventModule, input: unknown): string | null {
  const issue = validateJson(INPUT_SCHEMAS[event.name], input);
  return issue ? formatIssue(issue) : null;
}

/**
 * Asserts `event.interpret` gives exactly each case's outcome. Every output must first pass the
 * event's output schema, because `interpret` only ever sees outputs that did (src/output/protocol.ts).
 */
export function assertInterprets(event: EventModule, cases: InterpretCase[]): void {
  assertEquals(
    cases.map((c) => ({ output: c.output, schema: schemaIssue(event, c.output) })),
    cases.map((c) => ({ output: c.output, schema: null })),
    `${event.name}: an interpret case the output schema refuses`,
  );
  assertEquals(
    cases.map((c) => ({ output: c.output, outcome: event.interpret(c.output, "mind") })),
    cases.map((c) => ({ output: c.output, outcome: c.outcome })),
  );
}

/** Asserts the event's output schema refuses each case's output with exactly its issue. */
export function assertSchemaRejects(event: EventModule, cases: SchemaCase[]): void {
  assertEquals(
    cases.map((c) => ({ output: c.output, issue: schemaIssue(event, c.output) })),
    cases.map((c) => ({ output: c.output, issue: c.issue })),
  );
}

/** Aggregation items in configuration order, each completing in that order too. */
export function items(...effects: HandlerEffect[]): AggregationItem[] {
  return effects.map((effect, i) => ({ order: i, completedSeq: i + 1, effect }));
}

/** The effect of an outcome that did not fail (what aggregation receives from it). */
export function effectOf(outcome: HandlerOutcome): HandlerEffect {
  if (outcome.status === "failed") {
    throw new Error(`expected a completed or blocked outcome, got failed: ${outcome.reason}`);
  }
  return outcome.effect;
}
