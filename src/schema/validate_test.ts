import { assertEquals } from "../../tests/helpers/assert.ts";
import { type JsonSchema, validateAll, validateJson } from "./validate.ts";

const SCHEMA: JsonSchema = {
  type: "object",
  required: ["a", "b"],
  properties: { a: { type: "string" }, b: { type: "integer" }, list: { type: "array", items: { type: "string" } } },
  additionalProperties: false,
};

Deno.test("validateAll: every issue in schema order; validateJson: the first of them", () => {
  const value = { b: "x", list: ["ok", 3], extra: true };
  assertEquals(validateAll(SCHEMA, value), [
    { path: "a", message: "is required" },
    { path: "b", message: 'expected integer, got string "x"' },
    { path: "list[1]", message: "expected string, got integer 3" },
    { path: "extra", message: "is not an accepted field" },
  ]);
  assertEquals(validateJson(SCHEMA, value), { path: "a", message: "is required" });
  assertEquals(validateAll(SCHEMA, { a: "x", b: 1 }), []);
});

Deno.test("validateAll: a stranger's million wrong values stop at the bound", () => {
  const list = new Array(1_000_000).fill(0);
  assertEquals(validateAll(SCHEMA, { a: "x", b: 1, list }).length, 100);
  assertEquals(validateAll(SCHEMA, { a: "x", b: 1, list }, 3).map((i) => i.path), ["list[0]", "list[1]", "list[2]"]);
});
