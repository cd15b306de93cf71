/**
 * The long-lived transcript appender (src/session/transcript_writer.ts): call order, batching,
 * mixing with one-shot appends, failures and many open sessions.
 */

import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import { entry, readLines, readValidLines, uuidV7, withHome } from "../../tests/helpers/transcript.ts";
import { appendTranscript, transcriptPath } from "./transcript.ts";
import { TranscriptWriter } from "./transcript_writer.ts";

Deno.test("TranscriptWriter keeps call order, batches, and mixes safely with appendTranscript", async () => {
  await withHome(async (home) => {
    const writer = new TranscriptWriter(home);
    const sessions = ["sid_a", "sid_b", uuidV7(new Date())];
    const pending: Promise<unknown>[] = [];
    for (let seq = 0; seq < 3000; seq++) {
      for (const sessionId of sessions) {
        pending.push(
          writer.append({
            sessionId,
            event: "message.created",
            actor: "w",
            payload: { seq },
          }),
        );
      }
      if (seq % 10 === 0) {
        pending.push(
          appendTranscript(home, {
            sessionId: "sid_a",
            event: "tool.started",
            actor: "x",
            payload: {},
          }),
        );
      }
    }
    const results = await Promise.all(pending) as { ok: boolean }[];
    assert(results.every((r) => r.ok));
    await writer.close();
    for (const sessionId of sessions) {
      const lines = await readValidLines(await transcriptPath(home, sessionId));
      const own = lines.filter((l) => l.actor === "w").map((l) => l.payload.seq);
      assertEquals(own, Array.from({ length: 3000 }, (_, i) => i));
      assertEquals(lines.length - own.length, sessionId === "sid_a" ? 300 : 0);
    }
  });
});

Deno.test("TranscriptWriter: invalid entries, torn lines, deleted files, close", async () => {
  await withHome(async (home) => {
    const writer = new TranscriptWriter(home);
    const invalid = await writer.append(entry("nope"));
    assert(!invalid.ok && invalid.error.kind === "invalid");
    assertEquals([...Deno.readDirSync(home)], []);

    const first = await writer.append(entry("session.started"));
    assert(first.ok);
    await Deno.writeTextFile(first.path, '{"torn', { append: true });
    await writer.append(entry("turn.started"));
    assertEquals((await readLines(first.path)).map((l) => l.slice(0, 6)), [
      '{"time',
      '{"torn',
      '{"time',
    ]);

    // The file is deleted while the writer holds it open: the line must not vanish with it.
    await Deno.remove(first.path);
    const afterDelete = await writer.append(entry("turn.completed"));
    assert(afterDelete.ok);
    assertEquals(afterDelete.path, first.path);
    assertEquals((await readValidLines(first.path)).map((l) => l.event), [
      "turn.completed",
    ]);

    await writer.close();
    const closed = await writer.append(entry("turn.started"));
    assert(!closed.ok && closed.error.kind === "io");
  });
});

Deno.test("TranscriptWriter keeps many sessions without running out of handles", async () => {
  await withHome(async (home) => {
    const writer = new TranscriptWriter(home);
    const results = await Promise.all(
      Array.from(
        { length: 600 },
        (_, i) => writer.append({ ...entry("session.started"), sessionId: `sid_${i}` }),
      ),
    );
    assert(results.every((r) => r.ok));
    for (let i = 0; i < 600; i += 50) {
      assert(
        (await writer.append({
          ...entry("turn.started"),
          sessionId: `sid_${i}`,
        })).ok,
      );
      const path = await transcriptPath(home, `sid_${i}`);
      assertEquals((await readValidLines(path)).length, 2);
    }
    await writer.close();
  });
});
