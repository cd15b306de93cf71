import { ANSWER_MS, answerMs } from "./client.ts";
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
