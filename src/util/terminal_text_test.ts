/** What `sanitize` (src/util/terminal_text.ts) escapes before text reaches a terminal, and what it leaves alone. */
import { assertEquals } from "../../tests/helpers/assert.ts";
import { capped, oneLine, sanitize } from "./terminal_text.ts";

Deno.test("unit: sanitize escapes C0, DEL, C1, bidi and separators; leaves other text alone", () => {
  assertEquals(sanitize("a\u0000\u001b\u007f\u0085\u009f\t\r"), "a\\x00\\x1b\\x7f\\x85\\x9f\\t\\r");
  assertEquals(
    sanitize("\u061c\u200e\u200f\u202a\u202e\u2066\u2069\u2028\u2029"),
    "\\u061c\\u200e\\u200f\\u202a\\u202e\\u2066\\u2069\\u2028\\u2029",
  );
  assertEquals(sanitize("é 🎉 日本 ok"), "é 🎉 日本 ok");
  // Idempotent: an escape's backslash is not escaped again, nor is the line break's mark.
  assertEquals(sanitize(sanitize("\u001b")), "\\x1b");
  assertEquals(sanitize(sanitize("a\nb")), "a␤b");
});

Deno.test("unit: sanitize shows every invisible character — the format class (Cf), default-ignorables, odd spaces", () => {
  // The ones issue 36 met, then the class: zero-width space and joiners, BOM, word joiner, soft hyphen,
  // invisible operators, tags (astral), variation selectors, Hangul fillers, CGJ, no-break spaces.
  assertEquals(sanitize("r\u200bm \ufeff\u2060\u00ad"), "r\\u200bm \\ufeff\\u2060\\xad");
  assertEquals(
    sanitize("\u200c\u200d\u2062\u2064\u{e0041}\u{e007f}"),
    "\\u200c\\u200d\\u2062\\u2064\\u{e0041}\\u{e007f}",
  );
  assertEquals(sanitize("\ufe0f\u3164\u115f\u034f\u180e"), "\\ufe0f\\u3164\\u115f\\u034f\\u180e");
  assertEquals(sanitize("a\u00a0b\u2007c\u3000d\u2800"), "a\\xa0b\\u2007c\\u3000d\\u2800");
  // Every Cf code point of the BMP is escaped: the rule is the class, not a list.
  for (let c = 0; c <= 0xffff; c++) {
    const ch = String.fromCharCode(c);
    if (/\p{Cf}/u.test(ch)) assertEquals(sanitize(ch).startsWith("\\"), true, c.toString(16));
  }
});

Deno.test("unit: a real line break and a literal \\n look different", () => {
  assertEquals(sanitize("printf 'a\\n'\nrm -rf x"), "printf 'a\\n'␤rm -rf x");
  // oneLine keeps a line break (a command separator) for sanitize to show; spaces and tabs collapse.
  assertEquals(sanitize(oneLine("a  \t b\nc", 80)), "a b␤c");
  assertEquals(oneLine("a\u00a0b", 80), "a\u00a0b");
});

Deno.test("unit: capped marks a cut with …", () => {
  assertEquals(capped("abcdef", 4), "abc…");
  assertEquals(capped("abcd", 4), "abcd");
});

Deno.test("unit: oneLine flattens whitespace and cuts at max code points (a surrogate pair is one)", () => {
  assertEquals(oneLine("  a \tb  c ", 10), "a b c");
  assertEquals(oneLine("abcdef", 3), "abc…");
  assertEquals(oneLine("abc", 3), "abc");
  assertEquals(oneLine("🎉🎉🎉🎉", 2), "🎉🎉…");
  assertEquals(oneLine("x".repeat(10_000_000), 5), "xxxxx…");
});
