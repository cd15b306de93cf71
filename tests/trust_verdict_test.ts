/**
 * Handlers as discovery makes them are plain data (issue 26): no getter, nothing hidden, so a structured
 * clone of a loaded catalog's handlers deep-equals them and `assessTrust` judges the clone the same.
 */
import { assertEquals } from "./helpers/assert.ts";
import { type HookHandler, loadCatalog } from "../src/config/discovery.ts";
import { checkPins } from "../src/config/pinning.ts";
import { hookHash } from "../src/trust/hash.ts";
import { assessTrust } from "../src/trust/verdict.ts";

Deno.test("trust verdict: a loaded catalog's handlers are plain data — a structured clone is equal and judged the same", async () => {
  const root = await Deno.makeTempDir({ prefix: "mind-verdict-" });
  try {
    const home = `${root}/home`;
    const repo = `${root}/repo`;
    await Deno.mkdir(home);
    await Deno.mkdir(`${repo}/.mind`, { recursive: true });
    const stop = (command: string) => ({ hooks: [{ type: "command", command }] });
    await Deno.writeTextFile(
      `${home}/hooks.json`,
      JSON.stringify({ hooks: { Stop: [stop("echo a"), stop("echo b")] } }),
    );
    await Deno.writeTextFile(`${repo}/.mind/hooks.json`, JSON.stringify({ hooks: { Stop: [stop("sh .mind/p.sh")] } }));
    await Deno.writeTextFile(`${repo}/.mind/p.sh`, "true\n");
    const projects = `[projects."${repo}"]\ntrust_level = "trusted"\n`;
    await Deno.writeTextFile(`${home}/config.toml`, projects);
    const opts = { home, cwd: repo, requirements: `${root}/none.toml`, env: {} };
    const first = await loadCatalog(opts);
    if (!first.ok) throw new Error(first.error);
    // Trust the first user hook and the project hook by their current hashes.
    const [a, , p] = first.value.handlers;
    const state = [a, p].map((h) => `[hooks.state."${h.key}"]\ntrusted_hash = "${hookHash(h)}"\n`).join("");
    await Deno.writeTextFile(`${home}/config.toml`, projects + state);
    const loaded = await loadCatalog(opts);
    if (!loaded.ok) throw new Error(loaded.error);
    const catalog = loaded.value;
    const clones = catalog.handlers.map((h) => structuredClone(h));
    assertEquals(clones, catalog.handlers);
    // Nothing hidden or computed on read: every own property of a handler is a plain, enumerable value.
    const accessors = catalog.handlers.flatMap((h) =>
      Object.entries(Object.getOwnPropertyDescriptors(h)).filter(([, d]) => !("value" in d) || !d.enumerable)
        .map(([name]) => name)
    );
    assertEquals(accessors, []);
    assertEquals(JSON.parse(JSON.stringify(catalog.handlers[0])), JSON.parse(JSON.stringify(clones[0])));
    const pins = await checkPins(catalog.handlers);
    const statuses = (hs: HookHandler[]) => [...assessTrust(catalog, hs, pins).values()].map((v) => v.status);
    // The project hook's file was never pinned: it was trusted before pins were recorded.
    assertEquals(statuses(catalog.handlers), ["trusted", "untrusted", "modified"]);
    assertEquals(statuses(clones), statuses(catalog.handlers));
    assertEquals([...assessTrust(catalog, clones, pins).values()], [
      ...assessTrust(catalog, catalog.handlers, pins).values(),
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

/** Every non-test module under `src/<folder>`, with its text. */
async function modules(folder: string): Promise<{ path: string; text: string }[]> {
  const out: { path: string; text: string }[] = [];
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(dir)) {
      const p = `${dir}/${e.name}`;
      if (e.isDirectory) await walk(p);
      else if (e.name.endsWith(".ts") && !e.name.endsWith("_test.ts")) {
        out.push({ path: p, text: await Deno.readTextFile(p) });
      }
    }
  };
  await walk(new URL(`../src/${folder}`, import.meta.url).pathname);
  return out;
}

// (No getters installed on handlers, no defineProperties in src/config or src/trust: tests/architecture_test.ts.)
Deno.test("trust verdict: only trust/verdict.ts makes a trust status", async () => {
  // A status is made by a function returning one (or a cast to one); only the verdict has such.
  const makesStatus = /\)\s*:\s*TrustStatus\b|:\s*TrustStatus\s*=>|\bas\s+TrustStatus\b/;
  const makers = (await modules("")).filter((m) => makesStatus.test(m.text)).map((m) =>
    m.path.replace(/.*\/src\/+/, "")
  );
  assertEquals(makers, ["trust/verdict.ts"]);
});
