/** `duplicateKeys` (src/config/duplicate_keys.ts): every repeated key of a JSON text, at any depth. */
import { assertEquals } from "../../tests/helpers/assert.ts";
import { duplicateKeys } from "./duplicate_keys.ts";

Deno.test("duplicateKeys: every repeated key at any depth, escapes decoded, strings and comments skipped", () => {
  const text = `{"a": 1, /* "a": */ "b": {"x": "\\"x\\": 1", "x": [ {"k": 1, "k": 2} ]}, "\\u0061": 3, "c": "a",}`;
  assertEquals(
    duplicateKeys(text).map((d) => [d.key, d.path, text.slice(d.offset, d.offset + 3), d.firstOffset]),
    [["x", "b", `"x"`, 26], ["k", "b.x[0]", `"k"`, 51], ["a", "", `"\\u`, 1]],
  );
  assertEquals(duplicateKeys(`{"a": {"a": {"a": 1}}, "b": [{"a": 1}, {"a": 2}]}`), []);
});
