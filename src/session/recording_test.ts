import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import {
  latestEvents,
  MASKED,
  maskSecrets,
  pruneRecordings,
  readRecording,
  recordEvent,
  redactor,
} from "./recording.ts";
import type { DispatchResult } from "../schema/result.ts";

Deno.test("redactor: secret-named keys in any case, record_redact patterns, and a bad pattern masks everything", () => {
  const masks = redactor(["^auth", "cookie$"]);
  for (
    const k of [
      "API_TOKEN",
      "token",
      "client_secret",
      "Password",
      "db_password",
      "apiKey",
      "KEY",
      "authHeader",
      "x_cookie",
    ]
  ) {
    assert(masks(k), k);
  }
  for (const k of ["command", "tool_name", "prompt", "cwd", "cookies_eaten", "oauth"]) assert(!masks(k), k);
  assert(redactor(["("])("command"), "an invalid pattern masks every key");
});

Deno.test("maskSecrets: values of masked keys at any depth, arrays walked, other values and key order kept", () => {
  const masks = redactor([]);
  const input = { a: 1, tool_input: { command: "x", env: [{ GITHUB_TOKEN: "t", name: "n" }], secret: { deep: 1 } } };
  assertEquals(maskSecrets(input, masks), {
    a: 1,
    tool_input: { command: "x", env: [{ GITHUB_TOKEN: MASKED, name: "n" }], secret: MASKED },
  });
  // A key named __proto__ stays a plain own key.
  const hostile = JSON.parse('{"__proto__": {"password": "p"}}');
  const out = maskSecrets(hostile, masks) as Record<string, unknown>;
  assertEquals(Object.getPrototypeOf(out), Object.prototype);
  assertEquals(JSON.stringify(out), '{"__proto__":{"password":"<masked>"}}');
});

const RESULT = { decision: "deny", reason: "no" } as DispatchResult;

Deno.test("recordEvent: one line per event, 0600; the session's bound stops it; the total's bound removes the oldest", async () => {
  const home = await Deno.makeTempDir();
  try {
    const limits = { perSession: 600, total: 1200, checkEvery: 1 };
    const ev = (session: string) => ({ session_id: session, hook_event_name: "Stop", pad: "x".repeat(100) });
    await recordEvent(home, { redact: [] }, ev("a"), RESULT, limits);
    await recordEvent(home, { redact: [] }, ev("a"), RESULT, limits);
    const a = `${home}/recordings/a.jsonl`;
    assertEquals((await Deno.stat(a)).mode! & 0o777, 0o600);
    const lines = await readRecording(a);
    assertEquals(lines.map((l) => [l.event.session_id, l.decision, l.reason]), [["a", "deny", "no"], [
      "a",
      "deny",
      "no",
    ]]);
    // A third line (some 230 bytes each) would pass 600 bytes: not written.
    const size = (await Deno.stat(a)).size;
    await recordEvent(home, { redact: [] }, ev("a"), RESULT, limits);
    assertEquals((await Deno.stat(a)).size, size);
    // Sessions b, c, d: past 1200 bytes in all, the oldest go first, never the one being written.
    for (const s of ["b", "c", "d"]) {
      await new Promise((r) => setTimeout(r, 20));
      await recordEvent(home, { redact: [] }, ev(s), RESULT, limits);
      await recordEvent(home, { redact: [] }, ev(s), RESULT, limits);
    }
    const left = (await Array.fromAsync(Deno.readDir(`${home}/recordings`))).map((e) => e.name).sort();
    assertEquals(left.includes("d.jsonl") && !left.includes("a.jsonl"), true, left.join(","));
    let total = 0;
    for (const n of left) total += (await Deno.stat(`${home}/recordings/${n}`)).size;
    assert(total <= 1200, `${total}`);
    await pruneRecordings(`${home}/recordings`, `${home}/recordings/d.jsonl`, 0);
    assertEquals((await Array.fromAsync(Deno.readDir(`${home}/recordings`))).map((e) => e.name), ["d.jsonl"]);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("recordEvent: never throws — an unwritable home and a non-object event record nothing", async () => {
  await recordEvent("/nonexistent/mind-hooks-unit/home", { redact: [] }, { session_id: "s" }, RESULT);
  await recordEvent("/nonexistent/mind-hooks-unit/home", { redact: [] }, "not an object", RESULT);
});

Deno.test("latestEvents: the newest that pass the filter, oldest first, reading no more sessions than needed", async () => {
  const home = await Deno.makeTempDir();
  try {
    const none = await latestEvents(home, () => true, 5);
    assertEquals([none.events, none.any], [[], false]);
    for (const [session, name] of [["a", "Stop"], ["b", "PreToolUse"], ["c", "PreToolUse"], ["c", "Stop"]]) {
      await recordEvent(home, { redact: [] }, { session_id: session, hook_event_name: name, n: session }, RESULT);
      await new Promise((r) => setTimeout(r, 15));
    }
    const got = await latestEvents(home, (e) => e.event.hook_event_name === "PreToolUse", 5);
    assertEquals([got.events.map((e) => e.event.n), got.any], [["b", "c"], true]);
    const last = await latestEvents(home, () => true, 2);
    assertEquals(last.events.map((e) => [e.event.n, e.event.hook_event_name]), [["c", "PreToolUse"], ["c", "Stop"]]);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
