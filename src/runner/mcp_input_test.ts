/**
 * The `${a.b}` expansion of an mcp_tool handler's `input` (src/runner/mcp_input.ts, SPEC §7.3): types
 * kept for whole-string placeholders, text inside larger strings, no aliasing of the hook input.
 */
import { assertEquals } from "../../tests/helpers/assert.ts";
import { expandPlaceholders } from "./mcp_input.ts";

const INPUT = {
  session_id: "s1",
  tool_name: "Bash",
  tool_input: { file_path: "src/main.rs", count: 3, flag: false, none: null, args: ["a", "b"], nested: { k: [1, 2] } },
  prompt: "hi",
};

const TABLE: { name: string; template: unknown; expected: unknown }[] = [
  {
    name: "the seed's example",
    template: {
      path: "${tool_input.file_path}",
      count: "${tool_input.count}",
      message: "Scanning ${tool_input.file_path}",
    },
    expected: { path: "src/main.rs", count: 3, message: "Scanning src/main.rs" },
  },
  { name: "whole string keeps a number", template: "${tool_input.count}", expected: 3 },
  { name: "whole string keeps false", template: "${tool_input.flag}", expected: false },
  { name: "whole string keeps null", template: "${tool_input.none}", expected: null },
  { name: "whole string keeps an object", template: "${tool_input.nested}", expected: { k: [1, 2] } },
  { name: "whole string keeps an array", template: "${tool_input.args}", expected: ["a", "b"] },
  { name: "whole missing path is null", template: "${tool_input.nope}", expected: null },
  { name: "missing below a scalar is null", template: "${tool_input.count.x}", expected: null },
  { name: "array index", template: "${tool_input.args.1}", expected: "b" },
  { name: "array index out of range", template: "${tool_input.args.5}", expected: null },
  { name: "number inside text", template: "n=${tool_input.count}", expected: "n=3" },
  { name: "boolean inside text", template: "f=${tool_input.flag}", expected: "f=false" },
  { name: "object inside text is JSON", template: "o=${tool_input.nested}", expected: 'o={"k":[1,2]}' },
  { name: "array inside text is JSON", template: "a=${tool_input.args}", expected: 'a=["a","b"]' },
  { name: "missing inside text is empty", template: "[${tool_input.nope}]", expected: "[]" },
  { name: "null inside text is empty", template: "[${tool_input.none}]", expected: "[]" },
  { name: "several placeholders", template: "${tool_name}:${prompt}:${session_id}", expected: "Bash:hi:s1" },
  {
    name: "recursive arrays and objects",
    template: [{ a: ["${prompt}", { b: "${tool_input.count}" }] }, 7],
    expected: [{ a: ["hi", { b: 3 }] }, 7],
  },
  { name: "keys are not expanded", template: { "${prompt}": "${prompt}" }, expected: { "${prompt}": "hi" } },
  {
    name: "non-string leaves pass through",
    template: { n: 1, b: true, z: null },
    expected: { n: 1, b: true, z: null },
  },
  { name: "plain text is unchanged", template: "no placeholders $ { }", expected: "no placeholders $ { }" },
  { name: "an unterminated placeholder stays literal", template: "${prompt", expected: "${prompt" },
  { name: "empty path: whole is null", template: "${}", expected: null },
  { name: "empty segment is missing", template: "x${tool_input..count}", expected: "x" },
  { name: "inherited properties are not paths", template: "${constructor}", expected: null },
  { name: "__proto__ is not a path", template: "${tool_input.__proto__}", expected: null },
  { name: "a dollar before the placeholder stays", template: "$${prompt}", expected: "$hi" },
];

for (const { name, template, expected } of TABLE) {
  Deno.test(`expandPlaceholders: ${name}`, () => {
    assertEquals(expandPlaceholders(template, INPUT), expected);
  });
}

Deno.test("expandPlaceholders: the result never aliases the hook input", () => {
  const out = expandPlaceholders({ n: "${tool_input.nested}" }, INPUT) as { n: { k: number[] } };
  out.n.k.push(99);
  assertEquals(INPUT.tool_input.nested.k, [1, 2]);
});
