/**
 * One shape for a fallible operation's outcome (issue 26, ARCHITECTURE.md): `Result<T, E>` of
 * src/util/result.ts, tested with `.ok`. The product code (every non-test module of `src/` but the
 * generated ones, and `mod.ts`) neither tests another shape by a key (`"error" in x`, `"failed" in`,
 * `"value" in`, `"sandbox" in`, and the keys of the shapes converted to it: `"problem" in`, `"warning" in`,
 * …) nor declares one (`| { error: string }`, `{ error: string } |`).
 */
import { assertEquals } from "./helpers/assert.ts";
import { REPO } from "./helpers/cli.ts";
import { join, relative } from "node:path";

/** Every non-test `.ts` file under `dir` but `src/generated/`, relative to the repository. */
async function productFiles(dir: string, out: string[] = []): Promise<string[]> {
  for await (const e of Deno.readDir(dir)) {
    const p = join(dir, e.name);
    const rel = relative(REPO, p);
    if (e.isDirectory) {
      if (rel !== join("src", "generated")) await productFiles(p, out);
    } else if (e.name.endsWith(".ts") && !e.name.endsWith("_test.ts")) out.push(rel);
  }
  return out;
}

/** What the other shapes look like: a key tested with `in`, and a union member `{ error: string }`. */
const OTHER_SHAPES: readonly { readonly what: string; readonly re: RegExp }[] = [
  {
    what: "a key test instead of `.ok`",
    re: /(["'])(?:error|failed|value|sandbox|problem|refused|warning|missing|outside|handler|files|data|text)\1\s+in\b/,
  },
  { what: "an error-as-value type instead of Result", re: /\|\s*\{\s*(?:readonly\s+)?error\??\s*:\s*string;?\s*\}/ },
  { what: "an error-as-value type instead of Result", re: /\{\s*(?:readonly\s+)?error\??\s*:\s*string;?\s*\}\s*\|/ },
];

/** Each `file:line: what` of `text` that uses another shape. */
export function otherShapes(file: string, text: string): string[] {
  const found: string[] = [];
  text.split("\n").forEach((line, i) => {
    for (const { what, re } of OTHER_SHAPES) {
      if (re.test(line)) found.push(`${file}:${i + 1}: ${what}: ${line.trim()}`);
    }
  });
  return found;
}

Deno.test("result shape: the product code knows one Result shape (src/util/result.ts)", async () => {
  const files = [...await productFiles(join(REPO, "src")), "mod.ts"].sort();
  const found: string[] = [];
  for (const f of files) found.push(...otherShapes(f, await Deno.readTextFile(join(REPO, f))));
  assertEquals(found, []);
});

Deno.test("result shape: the check sees each other shape (it can fail)", () => {
  const lines = [
    `if ("error" in compiled) return;`,
    `if ('failed' in x) return;`,
    `const v = "value" in r ? r.value : null;`,
    `...("sandbox" in loaded ? { sandbox: true } : {})`,
    `if ("problem" in found) return;`,
    `if ("warning" in parsed) return { ok: false, missing: false, warning: parsed.warning };`,
    `): Matcher | { error: string } {`,
    `): { error: string } | { data: JsonObject } {`,
    `): Promise<Map<string, number> | { readonly error: string }> {`,
  ];
  for (const line of lines) assertEquals(otherShapes("x.ts", line).length, 1, line);
  // The one shape itself, and an error field of a record, are not other shapes.
  const fine = [
    `export type Result<T, E = string> = { readonly ok: true; readonly value: T } | {`,
    `if (!compiled.ok) return;`,
    `{ readonly ok: false; readonly error: string; readonly sandbox: true }`,
    `const errors = "errors" in doc;`,
  ];
  for (const line of fine) assertEquals(otherShapes("x.ts", line), [], line);
});
