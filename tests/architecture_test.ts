/**
 * The shape of the code (ARCHITECTURE.md): the folders of `src/` follow the pipeline, so no folder
 * imports another in a cycle at run time (static or dynamic imports; `import type` does not load
 * anything and is not counted), and every module is listed in ARCHITECTURE.md.
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

/** Relative specifiers a module loads at run time. */
function runtimeImports(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\s+(type\s+)?(?:[^;]*?\s+from\s+)?"([^"]+)"/gms)) {
    if (!m[1]) out.push(m[2]);
  }
  for (const m of text.matchAll(/import\(\s*"([^"]+)"\s*\)/g)) out.push(m[1]);
  return out.filter((s) => s.startsWith("."));
}

/** The folder graph: folder → folders it imports at run time. */
async function folderGraph(): Promise<Map<string, Set<string>>> {
  const graph = new Map<string, Set<string>>();
  for (const rel of await sources(join(REPO, "src"))) {
    if (rel.startsWith("generated/")) continue;
    const from = folderOf(rel);
    const text = await Deno.readTextFile(join(REPO, "src", rel));
    for (const spec of runtimeImports(text)) {
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

Deno.test("architecture: no folder of src/ imports another in a cycle at run time", async () => {
  assertEquals(cycles(await folderGraph()), []);
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
