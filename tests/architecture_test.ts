/**
 * The shape of the code (ARCHITECTURE.md): the folders of `src/` follow the pipeline, so no folder
 * imports another in a cycle (static, dynamic and `import type` imports alike: a type shared both
 * ways is a layer in the wrong place), every module is listed in ARCHITECTURE.md, no file is over
 * 600 lines, and no trust status is a getter installed on a handler.
 */
import { assertEquals } from "./helpers/assert.ts";
import { REPO } from "./helpers/cli.ts";
import { dirname, join, normalize, relative } from "node:path";

/** Every `.ts` file under `dir`, relative to `src/`. */
async function sources(dir: string, out: string[] = []): Promise<string[]> {
  for await (const e of Deno.readDir(dir)) {
    const p = join(dir, e.name);
    if (e.isDirectory) await sources(p, out);
    else if (e.name.endsWith(".ts")) out.push(relative(join(REPO, "src"), p));
  }
  return out;
}

/** The folder of a `src/`-relative path (`.` for a file directly in `src/`, `..` outside it). */
function folderOf(rel: string): string {
  if (rel.startsWith("..")) return "..";
  return rel.includes("/") ? rel.slice(0, rel.indexOf("/")) : ".";
}

/** Relative specifiers a module imports, types included. */
function imports(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\s+(?:type\s+)?(?:[^;]*?\s+from\s+)?"([^"]+)"/gms)) {
    out.push(m[1]);
  }
  for (const m of text.matchAll(/import\(\s*"([^"]+)"\s*\)/g)) out.push(m[1]);
  return out.filter((s) => s.startsWith("."));
}

/** The folder graph: folder → folders it imports (types too). */
async function folderGraph(): Promise<Map<string, Set<string>>> {
  const graph = new Map<string, Set<string>>();
  for (const rel of await sources(join(REPO, "src"))) {
    if (rel.startsWith("generated/")) continue;
    const from = folderOf(rel);
    const text = await Deno.readTextFile(join(REPO, "src", rel));
    for (const spec of imports(text)) {
      const target = relative(join(REPO, "src"), normalize(join(REPO, "src", dirname(rel), spec)));
      const to = folderOf(target);
      if (to === from || to === ".." || to === "generated") continue;
      if (!graph.has(from)) graph.set(from, new Set());
      graph.get(from)!.add(to);
    }
  }
  return graph;
}

/** Every cycle of the graph, each as a path `a → b → … → a` (one per strongly connected set). */
function cycles(graph: Map<string, Set<string>>): string[] {
  const found: string[] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (n: string) => {
    state.set(n, "open");
    stack.push(n);
    for (const m of graph.get(n) ?? []) {
      if (state.get(m) === "open") found.push([...stack.slice(stack.indexOf(m)), m].join(" → "));
      else if (!state.has(m)) visit(m);
    }
    stack.pop();
    state.set(n, "done");
  };
  for (const n of [...graph.keys()].sort()) if (!state.has(n)) visit(n);
  return found;
}

Deno.test("architecture: no folder of src/ imports another in a cycle, counting `import type`", async () => {
  assertEquals(cycles(await folderGraph()), []);
});

Deno.test("architecture: the import reader counts type-only, inline-type, re-export and dynamic imports", () => {
  const text = [
    `import type { A } from "../a/x.ts";`,
    `import { type B, c } from "../b/x.ts";`,
    `export type { D } from "../d/x.ts";`,
    `export { e } from "../e/x.ts";`,
    `const f = await import("../f/x.ts");`,
    `import { g } from "zod";`,
  ].join("\n");
  assertEquals(imports(text), ["../a/x.ts", "../b/x.ts", "../d/x.ts", "../e/x.ts", "../f/x.ts"]);
});

Deno.test("architecture: the cycle finder sees a cycle (a → b → c → a)", () => {
  const g = new Map([["a", new Set(["b"])], ["b", new Set(["c"])], ["c", new Set(["a"])]]);
  assertEquals(cycles(g), ["a → b → c → a"]);
});

Deno.test("architecture: ARCHITECTURE.md names every module of src/", async () => {
  const doc = await Deno.readTextFile(join(REPO, "ARCHITECTURE.md"));
  const missing = (await sources(join(REPO, "src")))
    .filter((rel) => !rel.startsWith("generated/") && !rel.endsWith("_test.ts"))
    .filter((rel) => {
      const base = rel.slice(rel.lastIndexOf("/") + 1);
      // A module is named by its path, or by its file name on the line of its folder (`src/review/app.ts`, `render.ts`).
      return !doc.includes(`src/${rel}`) && !doc.includes(`\`${base}\``);
    })
    .sort();
  assertEquals(missing, []);
});

/** The number of lines of a text (a last line without a newline counts). */
function lineCount(text: string): number {
  if (text === "") return 0;
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

Deno.test("architecture: no file of src/ (but src/generated/) is over 600 lines", async () => {
  const over: string[] = [];
  for (const rel of await sources(join(REPO, "src"))) {
    if (rel.startsWith("generated/")) continue;
    if (lineCount(await Deno.readTextFile(join(REPO, "src", rel))) > 600) over.push(rel);
  }
  assertEquals(over, []);
});

Deno.test("architecture: no defineProperties in src/config or src/trust (a handler is a plain record)", async () => {
  const found: string[] = [];
  for (const rel of await sources(join(REPO, "src"))) {
    if (!rel.startsWith("config/") && !rel.startsWith("trust/")) continue;
    if ((await Deno.readTextFile(join(REPO, "src", rel))).includes("defineProperties")) found.push(rel);
  }
  assertEquals(found, []);
});

Deno.test("architecture: the line count counts a last line without a newline", () => {
  assertEquals([lineCount(""), lineCount("a"), lineCount("a\n"), lineCount("a\nb"), lineCount("a\n\n")], [
    0,
    1,
    1,
    2,
    2,
  ]);
});

Deno.test("architecture: nothing outside the handler-type registry switches on a handler type", async () => {
  // The facts of a type live in its module (src/config/handler_types/, the schema's field tables, its
  // runner in src/runner/); everything else asks the registry, so a new type is one module, not 18 files.
  // A dialect (src/dialect/) reads its host's own `type` field, host data it translates into mind's form
  // before the registry sees the handler, so it is not a switch on mind's handler types.
  const own = (rel: string) =>
    rel.startsWith("config/handler_types/") || rel.startsWith("dialect/") || rel === "schema/handler.ts" ||
    /^runner\/(mcp|mcp_pool|mcp_client|http|prompt)\.ts$/.test(rel);
  const types = "command|mcp_tool|http|prompt";
  const switching = new RegExp(`\\.type\\s*[!=]==?\\s*"(?:${types})"|case\\s+"(?:${types})"\\s*:`);
  const found: string[] = [];
  for (const rel of await sources(join(REPO, "src"))) {
    if (rel.startsWith("generated/") || rel.endsWith("_test.ts") || own(rel)) continue;
    const text = await Deno.readTextFile(join(REPO, "src", rel));
    text.split("\n").forEach((line, i) => {
      if (switching.test(line)) found.push(`${rel}:${i + 1}: ${line.trim()}`);
    });
  }
  assertEquals(found, []);
});
