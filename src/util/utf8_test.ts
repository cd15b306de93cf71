/** The strict UTF-8 check (src/util/utf8.ts) agrees with the platform's fatal decoder, and places the first bad byte. */
import { assertEquals } from "../../tests/helpers/assert.ts";
import { decodeUtf8Strict, firstInvalidUtf8 } from "./utf8.ts";
import { fail, ok } from "./result.ts";

const CASES: [name: string, bytes: number[], invalidAt: number][] = [
  ["ascii", [0x61, 0x62], -1],
  ["two, three and four bytes", [0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80], -1],
  ["a lone continuation byte", [0x61, 0x80], 1],
  ["Latin-1 é", [0x63, 0x61, 0x66, 0xe9, 0x20], 3],
  ["an overlong two-byte form", [0xc0, 0xaf], 0],
  ["an overlong three-byte form", [0xe0, 0x80, 0xaf], 0],
  ["a surrogate", [0x61, 0xed, 0xa0, 0x80], 1],
  ["past U+10FFFF", [0xf4, 0x90, 0x80, 0x80], 0],
  ["cut short by the end", [0x61, 0xe2, 0x82], 1],
  ["a bad continuation", [0xe2, 0x28, 0xa1], 0],
];

Deno.test("utf8: the first invalid byte of each case, and the fatal decoder agrees on validity", () => {
  assertEquals(
    CASES.map(([name, b]) => [name, firstInvalidUtf8(new Uint8Array(b))]),
    CASES.map(([n, , at]) => [n, at]),
  );
  const fatal = (b: number[]) => {
    try {
      new TextDecoder("utf-8", { fatal: true }).decode(new Uint8Array(b));
      return -1;
    } catch {
      return 0;
    }
  };
  assertEquals(CASES.map(([, b]) => fatal(b) === -1), CASES.map(([, , at]) => at === -1));
});

Deno.test("utf8: decodeUtf8Strict keeps a BOM and gives the text before a bad byte", () => {
  assertEquals(decodeUtf8Strict(new Uint8Array([0xef, 0xbb, 0xbf, 0x61])), ok("\ufeffa"));
  assertEquals(decodeUtf8Strict(new Uint8Array([0x61, 0x0a, 0x62, 0xff])), fail({ invalidAt: 3, before: "a\nb" }));
});
