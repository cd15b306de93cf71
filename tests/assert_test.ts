/**
 * The assertion helper every test uses (tests/helpers/assert.ts) fails when it should: a helper that
 * never throws would turn every test that uses it green.
 */
import {
  assert,
  assertEquals,
  assertMatch,
  assertNotEquals,
  assertNotMatch,
  assertRejects,
  assertStringIncludes,
  assertThrows,
} from "./helpers/assert.ts";

/** Whether `fn` throws (the helpers' own failures are what is looked for). */
function fails(fn: () => unknown): boolean {
  try {
    fn();
    return false;
  } catch {
    return true;
  }
}

/** Whether `work` rejects. */
async function rejects(work: () => Promise<unknown>): Promise<boolean> {
  try {
    await work();
    return false;
  } catch {
    return true;
  }
}

Deno.test("assert helper: deep equality ignores undefined keys and compares Maps and Sets by their entries", () => {
  assertEquals({ a: 1, b: undefined }, { a: 1 });
  assertEquals(new Map([["k", { v: [1] }]]), new Map([["k", { v: [1] }]]));
  assertEquals(new Set([{ a: 1 }, 2]), new Set([2, { a: 1 }]));
  const unequal: [unknown, unknown][] = [
    [{ a: 1 }, { a: 2 }],
    [[1, 2], [2, 1]],
    [new Map([["k", 1]]), new Map([["k", 2]])],
    [new Map([["k", 1]]), new Map([["j", 1]])],
    [new Set([1]), new Set([2])],
    [new Map(), {}],
    [0, -0],
    ["1", 1],
  ];
  for (const [a, b] of unequal) {
    assert(fails(() => assertEquals(a, b)), `assertEquals(${String(a)}, ${String(b)}) passed`);
    assertNotEquals(a, b);
  }
  assert(fails(() => assertNotEquals({ a: [1] }, { a: [1] })), "assertNotEquals of equal values passed");
});

Deno.test("assert helper: assert, assertStringIncludes, assertMatch and assertNotMatch fail on the wrong input", () => {
  assert(fails(() => assert(0)) && fails(() => assert("", "empty")));
  assert(fails(() => assertStringIncludes("abc", "d")));
  assertMatch("abc", /b/);
  assert(fails(() => assertMatch("abc", /d/)));
  assert(fails(() => assertMatch(7 as unknown as string, /7/)), "a number is not a string");
  assertNotMatch("abc", /d/);
  assert(fails(() => assertNotMatch("abc", /b/)));
});

Deno.test("assert helper: assertThrows and assertRejects check that, and what, was thrown", async () => {
  const boom = () => {
    throw new RangeError("out of range");
  };
  assertThrows(boom);
  assertThrows(boom, RangeError);
  assertThrows(boom, /^RangeError: out of/);
  assertThrows(boom, "a string is the message");
  assert(fails(() => assertThrows(() => 1)), "nothing thrown passed");
  assert(fails(() => assertThrows(boom, TypeError)), "the wrong class passed");
  assert(fails(() => assertThrows(boom, /in range/)), "the wrong pattern passed");
  await assertRejects(Promise.reject(new TypeError("t")), TypeError);
  await assertRejects(() => Promise.reject(new Error("e")), /e/);
  assert(await rejects(() => assertRejects(Promise.resolve(1))), "a resolved promise passed");
  assert(await rejects(() => assertRejects(Promise.reject(new Error("e")), TypeError)), "the wrong class passed");
});
