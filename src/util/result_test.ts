import { assertEquals } from "../../tests/helpers/assert.ts";
import { fail, ok, type Result } from "./result.ts";

Deno.test("result: ok and fail build the one shape, and narrowing on ok reaches value or error", () => {
  const parse = (s: string): Result<number> => /^\d+$/.test(s) ? ok(Number(s)) : fail(`${s} is not a number`);
  const read = (r: Result<number>) => r.ok ? r.value : r.error;
  assertEquals([parse("12"), parse("x")], [{ ok: true, value: 12 }, { ok: false, error: "x is not a number" }]);
  assertEquals([read(parse("12")), read(parse("x"))], [12, "x is not a number"]);
});
