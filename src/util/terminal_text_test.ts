/** What `sanitize` (src/util/terminal_text.ts) escapes before text reaches a terminal, and what it leaves alone. */
import { assertEquals } from "../../tests/helpers/assert.ts";
import { sanitize } from "./terminal_text.ts";

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
