/** The daemon client's pure parts, and its line reader. */
import { ANSWER_MS, answerMs, LineReader } from "./client.ts";
import { assertEquals } from "../../tests/helpers/assert.ts";

Deno.test("daemon client: waits 50 ms unless MIND_HOOKS_DAEMON_WAIT_MS names a whole 1..60000", () => {
  const cases: [string | undefined, number][] = [
    [undefined, ANSWER_MS],
    ["", ANSWER_MS],
    ["10000", 10_000],
    ["1", 1],
    ["60000", 60_000],
    ["0", ANSWER_MS],
    ["60001", ANSWER_MS],
    ["-5", ANSWER_MS],
    ["1.5", ANSWER_MS],
    ["1e3", ANSWER_MS],
    [" 200", ANSWER_MS],
  ];
  assertEquals(
    cases.map(([v]) => answerMs({ MIND_HOOKS_DAEMON_WAIT_MS: v })),
    cases.map(([, n]) => n),
  );
  assertEquals(ANSWER_MS, 50);
});

Deno.test("daemon line reader: messages split across reads and packed in one are read whole, into one reused buffer", async () => {
  const text = JSON.stringify({ type: "accepted" }) + "\n" +
    JSON.stringify({ type: "answer", stdout: "x".repeat(40_000) }) +
    "\n";
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  const buffers = new Set<Uint8Array>();
  const conn = {
    read(into: Uint8Array): Promise<number | null> {
      buffers.add(into);
      // A read gives what is there, at most 7,000 bytes at a time (a socket's chunks).
      const n = Math.min(7_000, into.length, bytes.length - at);
      if (n === 0) return Promise.resolve(null);
      into.set(bytes.subarray(at, at + n));
      at += n;
      return Promise.resolve(n);
    },
  } as unknown as Deno.Conn;
  const reader = new LineReader<{ type: string; stdout?: string }>(conn);
  const read = [await reader.next(), await reader.next(), await reader.next()];
  assertEquals(
    [read.map((m) => m === null ? null : [m.type, m.stdout?.length ?? 0]), buffers.size],
    [[["accepted", 0], ["answer", 40_000], null], 1],
  );
});
