/**
 * One transcript line (src/session/transcript_line.ts): the shape every line has (its zod schema,
 * src/session/transcript_schema.ts) and a line rendered for people.
 */

import { assert, assertEquals, assertMatch } from "../../tests/helpers/assert.ts";
import { renderTranscriptLine } from "./transcript_line.ts";
import { TranscriptLine } from "./transcript_schema.ts";

Deno.test("TranscriptLine accepts §11's example and rejects anything else", () => {
  const example = {
    timestamp: "2026-08-01T10:20:30.123Z",
    event: "message.created",
    session_id: "sid_1",
    turn_id: "t1",
    actor: "user",
    payload: { content: "hello" },
  };
  assert(TranscriptLine.safeParse(example).success);
  assert(
    TranscriptLine.safeParse({ ...example, turn_id: null, actor: null })
      .success,
  );
  const bad = [
    { ...example, extra: 1 },
    { ...example, event: "message.deleted" },
    { ...example, payload: [] },
    { ...example, payload: "text" },
    { ...example, payload: null },
    { ...example, timestamp: "2026-08-01 10:20:30" },
    { ...example, session_id: "" },
  ];
  for (const line of bad) {
    assertEquals(
      TranscriptLine.safeParse(line).success,
      false,
      JSON.stringify(line),
    );
  }
  const { actor: _actor, ...missing } = example;
  assertEquals(TranscriptLine.safeParse(missing).success, false);
});

Deno.test("renderTranscriptLine shows time, actor, event and a one-line summary", () => {
  const line = JSON.stringify({
    timestamp: "2026-08-01T10:20:30.123Z",
    event: "message.created",
    session_id: "s",
    turn_id: "t",
    actor: "user",
    payload: { content: "hello\n  world" },
  });
  assertEquals(
    renderTranscriptLine(line),
    "10:20:30.123  user  message.created  hello world",
  );
  const noActor = JSON.stringify({
    timestamp: "2026-08-01T10:20:30.123Z",
    event: "tool.started",
    session_id: "s",
    turn_id: null,
    actor: null,
    payload: { tool: "Bash" },
  });
  assertEquals(
    renderTranscriptLine(noActor),
    '10:20:30.123  -  tool.started  {"tool":"Bash"}',
  );
  assertMatch(
    renderTranscriptLine('{"timestamp":"2026'),
    /^\[torn line skipped: /,
  );
  assertMatch(renderTranscriptLine('{"event":"x"}'), /^\[torn line skipped: /);
  assertEquals(renderTranscriptLine(""), "");
  const long = JSON.stringify({
    timestamp: "2026-08-01T10:20:30.123Z",
    event: "message.created",
    session_id: "s",
    turn_id: null,
    actor: "assistant",
    payload: { content: "😀".repeat(500) },
  });
  assertEquals(
    renderTranscriptLine(long),
    `10:20:30.123  assistant  message.created  ${"😀".repeat(200)}…`,
  );
});
