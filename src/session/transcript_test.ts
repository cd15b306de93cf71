/**
 * Tests of the §11 session transcript's paths and appends (src/session/transcript.ts) and of creation
 * dates in session ids (src/util/session_id.ts). Many processes appending at once: tests/transcript_test.ts.
 */

import { assert, assertEquals, assertMatch, assertNotEquals } from "../../tests/helpers/assert.ts";
import { DAY, entry, readLines, readValidLines, ulid, uuidV7, withHome } from "../../tests/helpers/transcript.ts";
import { dirname, join, relative } from "node:path";
import {
  appendTranscript,
  sessionDateFromId,
  subagentTranscriptPath,
  subagentTranscriptPathSync,
  TRANSCRIPT_EVENTS,
  transcriptPath,
  transcriptPathSync,
} from "./transcript.ts";
import { renderTranscriptLine, type TranscriptEntry } from "./transcript_line.ts";
import { TranscriptLine } from "./transcript_schema.ts";

Deno.test("the closed event list is §11's 13 names", () => {
  assertEquals([...TRANSCRIPT_EVENTS], [
    "session.started",
    "session.ended",
    "turn.started",
    "turn.completed",
    "turn.failed",
    "turn.interrupted",
    "message.created",
    "message.updated",
    "tool.started",
    "tool.completed",
    "tool.failed",
    "context.compacted",
    "context.compaction.failed",
  ]);
});

Deno.test("sessionDateFromId reads UUIDv7 and ULID times anywhere in the id", () => {
  const when = new Date("2025-03-04T05:06:07.890Z");
  const v7 = uuidV7(when);
  const cases: [string, Date | null][] = [
    [v7, when],
    [v7.toUpperCase(), when],
    [v7.replaceAll("-", ""), when],
    [`sid_${v7}`, when],
    [`agent-${v7}-resumed`, when],
    [ulid(when), when],
    [ulid(when).toLowerCase(), when],
    [`sid_${ulid(when)}`, when],
    [`${uuidV7(when)}/${uuidV7(new Date("2030-01-01T00:00:00Z"))}`, when],
    // Not dates: plain ids, UUIDv4, wrong variant, out-of-range times, ids glued to other text.
    ["sid_plain", null],
    ["", null],
    ["0190f5c2-1a2b-4c3d-8e4f-0123456789ab", null],
    [uuidV7(when, "7abc-1def-0123456789ab"), null],
    [uuidV7(new Date(0)), null],
    ["7ZZZZZZZZZZZZZZZZZZZZZZZZZ", null],
    ["00000000000000000000000000", null],
    [`x${ulid(when)}`, null],
    [`${ulid(when)}0`, null],
    [`${v7}a`, null],
    ["HELLOWORLDHELLOWORLDHELLOW", null],
  ];
  for (const [id, expected] of cases) {
    assertEquals(sessionDateFromId(id), expected, id);
  }
});

Deno.test("transcriptPath dates UUIDv7 and ULID sessions by their id", async () => {
  await withHome(async (home) => {
    const when = new Date("2024-12-31T23:59:59.999Z");
    const today = new Date("2026-01-15T12:00:00Z");
    for (const id of [uuidV7(when), ulid(when), `sid_${ulid(when)}`]) {
      const expected = join(home, "sessions/2024/12/31", `session-${id}.jsonl`);
      assertEquals(await transcriptPath(home, id, today), expected);
      assertEquals(transcriptPathSync(home, id, today), expected);
    }
  });
});

Deno.test("transcriptPath of a plain id: an existing file wins, else today", async () => {
  await withHome(async (home) => {
    const today = new Date("2026-01-15T12:00:00Z");
    const todays = join(home, "sessions/2026/01/15/session-sid_plain.jsonl");
    assertEquals(await transcriptPath(home, "sid_plain", today), todays);

    const older = join(home, "sessions/2025/12/31/session-sid_plain.jsonl");
    await Deno.mkdir(dirname(older), { recursive: true });
    await Deno.writeTextFile(older, "");
    assertEquals(await transcriptPath(home, "sid_plain", today), older);
    assertEquals(transcriptPathSync(home, "sid_plain", today), older);
    // Another session's file and stray folders do not matter.
    assertEquals(
      await transcriptPath(home, "sid_other", today),
      join(home, "sessions/2026/01/15/session-sid_other.jsonl"),
    );
    await Deno.mkdir(join(home, "sessions/notayear/01/01"), {
      recursive: true,
    });
    assertEquals(await transcriptPath(home, "sid_plain", today), older);
  });
});

Deno.test("a plain-id session that spans midnight keeps appending to its first file", async () => {
  await withHome(async (home) => {
    const first = await appendTranscript(
      home,
      entry("session.started"),
      new Date("2026-01-15T23:59:59.900Z"),
    );
    const second = await appendTranscript(
      home,
      entry("turn.started"),
      new Date("2026-01-16T00:00:00.100Z"),
    );
    assert(first.ok && second.ok);
    assertEquals(second.path, first.path);
    assertEquals(
      first.path,
      join(home, "sessions/2026/01/15/session-sid_plain.jsonl"),
    );
    assertEquals((await readValidLines(first.path)).length, 2);
  });
});

Deno.test("hostile session ids keep the transcript inside sessions/YYYY/MM/DD", async () => {
  await withHome(async (home) => {
    for (
      const id of [
        "../../x",
        "/etc/passwd",
        "..",
        "a\\..\\b",
        "a\0b",
        "x".repeat(10_000),
      ]
    ) {
      const result = await appendTranscript(home, {
        ...entry("session.started"),
        sessionId: id,
      }, DAY);
      assert(result.ok, JSON.stringify(result));
      const rel = relative(join(home, "sessions"), result.path);
      assertMatch(rel, /^2026\/08\/01\/session-[A-Za-z0-9._~-]+\.jsonl$/);
      const [line] = await readValidLines(result.path);
      assertEquals(line.session_id, id); // the line keeps the real id
    }
  });
});

Deno.test("appendTranscript writes exactly the six fields, timestamp in ISO ms UTC", async () => {
  await withHome(async (home) => {
    const result = await appendTranscript(home, {
      sessionId: "sid_plain",
      event: "message.created",
      turnId: "turn-1",
      actor: "user",
      payload: { content: "hello\nworld", nested: { n: [1, 2] } },
    }, DAY);
    assert(result.ok);
    assertEquals(
      result.path,
      join(home, "sessions/2026/08/01/session-sid_plain.jsonl"),
    );
    const [raw] = await readLines(result.path);
    assertEquals(JSON.parse(raw), {
      timestamp: "2026-08-01T10:20:30.123Z",
      event: "message.created",
      session_id: "sid_plain",
      turn_id: "turn-1",
      actor: "user",
      payload: { content: "hello\nworld", nested: { n: [1, 2] } },
    });
    assertEquals(Object.keys(JSON.parse(raw)), [
      "timestamp",
      "event",
      "session_id",
      "turn_id",
      "actor",
      "payload",
    ]);
    // Absent turn and actor are null, not missing.
    await appendTranscript(home, entry("turn.started"), DAY);
    const [, second] = await readValidLines(result.path);
    assertEquals(second.turn_id, null);
    assertEquals(second.actor, null);
  });
});

Deno.test("invalid entries are refused and nothing is written", async () => {
  await withHome(async (home) => {
    const bad: [TranscriptEntry, RegExp][] = [
      [entry("message.deleted"), /unknown transcript event/],
      [entry(""), /unknown transcript event/],
      [{ ...entry("turn.started"), payload: [] as never }, /JSON object/],
      [{ ...entry("turn.started"), payload: null as never }, /JSON object/],
      [{ ...entry("turn.started"), payload: "text" as never }, /JSON object/],
      [
        { ...entry("turn.started"), payload: new Date() as never },
        /JSON object/,
      ],
      [{ ...entry("turn.started"), payload: { n: 1n } }, /serializable/],
      [{ ...entry("turn.started"), turnId: 5 as never }, /turnId/],
      [{ ...entry("turn.started"), actor: {} as never }, /actor/],
      [{ ...entry("turn.started"), sessionId: "" }, /sessionId/],
    ];
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    bad.push([{ ...entry("turn.started"), payload: cyclic }, /serializable/]);
    for (const [input, message] of bad) {
      const result = await appendTranscript(home, input, DAY);
      assertEquals(result.ok, false);
      assert(!result.ok && result.error.kind === "invalid");
      assertMatch(result.error.message, message);
    }
    assertEquals([...Deno.readDirSync(home)], []);
  });
});

Deno.test("a home that cannot hold files gives an io error", async () => {
  await withHome(async (dir) => {
    const home = join(dir, "file");
    await Deno.writeTextFile(home, "");
    const result = await appendTranscript(home, entry("session.started"), DAY);
    assert(!result.ok && result.error.kind === "io", JSON.stringify(result));
  });
});

Deno.test("a line torn by a crash is isolated on its own line before the next append", async () => {
  await withHome(async (home) => {
    const first = await appendTranscript(home, entry("turn.started"), DAY);
    assert(first.ok);
    const torn = '{"timestamp":"2026-08-01T10:20:30.123Z","event":"message.cre';
    await Deno.writeTextFile(first.path, torn, { append: true });
    await appendTranscript(home, entry("turn.completed"), DAY);
    await appendTranscript(home, entry("turn.started"), DAY);
    const lines = await readLines(first.path);
    assertEquals(lines.length, 4);
    assertEquals(lines[1], torn);
    for (const i of [0, 2, 3]) TranscriptLine.parse(JSON.parse(lines[i]));
    assertEquals(JSON.parse(lines[2]).event, "turn.completed");
    assertMatch(renderTranscriptLine(lines[1]), /^\[torn line skipped: /);
    // A clean file gets no extra blank line.
    assert(!(await Deno.readTextFile(first.path)).includes("\n\n"));
  });
});

Deno.test("resume appends to the same file, starting with a new session.started", async () => {
  await withHome(async (home) => {
    const id = uuidV7(new Date("2026-02-03T04:05:06Z"));
    const events = [
      "session.started",
      "turn.started",
      "message.created",
      "turn.completed",
      "session.ended",
    ];
    const paths = new Set<string>();
    for (const event of [...events, ...events]) {
      const result = await appendTranscript(
        home,
        { sessionId: id, event, payload: {} },
        new Date("2026-02-09T00:00:00Z"),
      );
      assert(result.ok);
      paths.add(result.path);
    }
    assertEquals(paths.size, 1);
    const [path] = paths;
    assertEquals(
      path,
      join(home, "sessions/2026/02/03", `session-${id}.jsonl`),
    );
    const lines = await readValidLines(path);
    assertEquals(lines.map((l) => l.event), [...events, ...events]);
    assertEquals(lines.filter((l) => l.event === "session.started").length, 2);
  });
});

Deno.test("a subagent writes its own file next to its parent's", async () => {
  await withHome(async (home) => {
    const parent = ulid(new Date("2026-03-01T00:00:00Z"));
    const expected = join(
      home,
      "sessions/2026/03/01",
      `session-${parent}+agent-agent_7.jsonl`,
    );
    assertEquals(
      await subagentTranscriptPath(home, parent, "agent_7"),
      expected,
    );
    assertEquals(subagentTranscriptPathSync(home, parent, "agent_7"), expected);
    const sub = await appendTranscript(home, {
      sessionId: parent,
      agentId: "agent_7",
      event: "turn.started",
      payload: {},
    });
    const root = await appendTranscript(home, {
      sessionId: parent,
      event: "turn.started",
      payload: {},
    });
    assert(sub.ok && root.ok);
    assertEquals(sub.path, expected);
    assertNotEquals(root.path, sub.path);
    assertEquals((await readValidLines(sub.path))[0].session_id, parent);
    // A root session can never be named like a subagent's file.
    const lookalike = await transcriptPath(home, `${parent}+agent-agent_7`);
    assertNotEquals(lookalike, expected);
  });
});

Deno.test("a plain-id subagent follows its parent's existing file", async () => {
  await withHome(async (home) => {
    const started = await appendTranscript(
      home,
      entry("session.started"),
      new Date("2026-01-15T10:00:00Z"),
    );
    assert(started.ok);
    const later = new Date("2026-01-20T10:00:00Z");
    assertEquals(
      await subagentTranscriptPath(home, "sid_plain", "a1", later),
      join(dirname(started.path), "session-sid_plain+agent-a1.jsonl"),
    );
  });
});

Deno.test("transcripts are private to their owner", {
  ignore: Deno.build.os === "windows",
}, async () => {
  await withHome(async (home) => {
    const result = await appendTranscript(home, entry("session.started"), DAY);
    assert(result.ok);
    assertEquals((await Deno.stat(result.path)).mode! & 0o077, 0);
  });
});
