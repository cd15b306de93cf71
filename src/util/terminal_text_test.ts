/** What `sanitize` (src/util/terminal_text.ts) escapes before text reaches a terminal, and what it leaves alone. */
import { assertEquals } from "../../tests/helpers/assert.ts";
import { oneLine, sanitize } from "./terminal_text.ts";

Deno.test("unit: sanitize escapes C0, DEL, C1, bidi and separators; leaves other text alone", () => {
  assertEquals(sanitize("a\u0000\u001b\u007f\u0085\u009f\n\t\r"), "a\\x00\\x1b\\x7f\\x85\\x9f\\n\\t\\r");
  assertEquals(
    sanitize("\u061c\u200e\u200f\u202a\u202e\u2066\u2069\u2028\u2029"),
    "\\u061c\\u200e\\u200f\\u202a\\u202e\\u2066\\u2069\\u2028\\u2029",
  );
  assertEquals(sanitize("é 🎉 日本 \u200b"), "é 🎉 日本 \u200b");
  // Idempotent: an escape's backslash is not escaped again.
  assertEquals(sanitize(sanitize("\u001b")), "\\x1b");
});

Deno.test("unit: oneLine flattens whitespace and cuts at max code points (a surrogate pair is one)", () => {
  assertEquals(oneLine("  a\n\tb  c ", 10), "a b c");
  assertEquals(oneLine("abcdef", 3), "abc…");
  assertEquals(oneLine("abc", 3), "abc");
  assertEquals(oneLine("🎉🎉🎉🎉", 2), "🎉🎉…");
  assertEquals(oneLine("x".repeat(10_000_000), 5), "xxxxx…");
});
