/**
 * `deno task bundle:gen`: writes `src/generated/dispatch_bundle.js`, the command line (src/cli/main.ts)
 * and everything the dispatch path imports, in one JavaScript module (`deno bundle`). `main.ts` runs
 * `dispatch` from it: one file loads in a fraction of the time of the ~70 TypeScript modules and the
 * npm package it is built from (docs/performance.md).
 *
 * Lazy boundaries stay lazy: a module the path imports with `import("…")` is in the bundle but is
 * evaluated only when imported; npm packages imported only lazily (the MCP SDK, jsonc-parser, re2js,
 * …) stay outside it, loaded from the module cache when needed. The commands other than `dispatch`
 * are loaded by computed specifiers (src/cli/commands.ts), so they are not in it either.
 *
 * The header records a SHA-256 over the files the bundle was built from (the module graph of
 * src/cli/main.ts, deno.json and deno.lock): tests/bundle_test.ts fails when it is stale, and the
 * end-to-end helpers refuse to run a stale bundle (tests/helpers/cli.ts). `--check` exits 1 when the
 * committed bundle is stale, without writing.
 * @module
 */
import { runScript } from "./cli.ts";

/** The bundle, relative to the repository root. */
export const BUNDLE_PATH = "src/generated/dispatch_bundle.js";
/** The module the bundle is built from. */
export const BUNDLE_ENTRY = "src/cli/main.ts";

/**
 * npm packages the bundle leaves outside: those the command line imports only with `import("…")`
 * (the MCP SDK costs ~150 ms to load; re2js), and those it must never hold. Every other package is
 * inlined: esbuild lifts a static import of an external package to the bundle's top, where every
 * dispatch would load it ({@link staticImports} must find none).
 */
export const EXTERNAL_PACKAGES: readonly string[] = ["@modelcontextprotocol/sdk", "re2js", "zod", "fast-check", "yaml"];

/** The static `import … from "…"` statements of a module's text: what loads before its first line runs. */
export function staticImports(js: string): string[] {
  return [...js.matchAll(/^\s*(?:import|export)\b[^;("'`]*?\bfrom\s*["']([^"']+)["']|^\s*import\s*["']([^"']+)["']/gm)]
    .map((m) => m[1] ?? m[2]);
}

const ROOT = new URL("../", import.meta.url);
const rootPath = decodeURIComponent(ROOT.pathname);

/** The repository files the bundle is built from: the entry's module graph, deno.json, deno.lock. */
export async function bundleInputs(): Promise<string[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", BUNDLE_ENTRY],
    cwd: rootPath,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(`deno info failed: ${new TextDecoder().decode(out.stderr).trim()}`);
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as { modules: { specifier: string }[] };
  const files = info.modules.map((m) => m.specifier).filter((s) => s.startsWith(ROOT.href))
    .map((s) => decodeURIComponent(s.slice(ROOT.href.length)));
  return [...new Set([...files, "deno.json", "deno.lock"])].sort();
}

/** SHA-256 (hex) over `files` (repository-relative), each as its path, its length and its bytes. */
export async function inputsHash(files: readonly string[]): Promise<string> {
  const parts: Uint8Array[] = [];
  const enc = new TextEncoder();
  for (const f of [...files].sort()) {
    const bytes = await Deno.readFile(new URL(f, ROOT));
    parts.push(enc.encode(`${f}\n${bytes.length}\n`), bytes);
  }
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", all));
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** What the header of a bundle says it was built from. */
export type BundleHeader = { hash: string; inputs: string[]; deno: string };

/** Reads the header of the bundle text; null when it has none. */
export function readHeader(text: string): BundleHeader | null {
  const hash = /^\/\/ inputs-sha256: ([0-9a-f]{64})$/m.exec(text)?.[1];
  const deno = /^\/\/ built-with: deno (\S+)$/m.exec(text)?.[1];
  if (!hash || !deno) return null;
  const inputs = [...text.matchAll(/^\/\/ input: (\S+)$/gm)].map((m) => m[1]);
  return { hash, inputs, deno };
}

/**
 * esbuild names each module in a comment (and a lazily evaluated one also by a key of its wrapper):
 * an npm module by its path in the module cache, a path of the machine that built it. That path
 * becomes `npm:<package>@<version>/`.
 */
export function scrubPaths(js: string): string {
  return js.replace(
    /(?:\.\.\/)*[^\s"'`]*?\/npm\/[^/\s"'`]+\/((?:@[^/\s"'`]+\/)?[^/\s"'`]+)\/([^/\s"'`]+)\//g,
    "npm:$1@$2/",
  );
}

/** Bundles the entry with `deno bundle`; returns the scrubbed JavaScript. */
export async function bundleText(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "mind-bundle-" });
  try {
    const outFile = `${dir}/bundle.js`;
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "bundle",
        "--quiet",
        // Minified, the bundle is half the size and loads ~1.5 ms sooner; names are kept (error names, classes).
        "--minify",
        "--keep-names",
        ...EXTERNAL_PACKAGES.flatMap((p) => ["--external", p, "--external", `${p}/*`]),
        "-o",
        outFile,
        BUNDLE_ENTRY,
      ],
      cwd: rootPath,
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!out.success) throw new Error(`deno bundle failed: ${new TextDecoder().decode(out.stderr).trim()}`);
    const js = scrubPaths(await Deno.readTextFile(outFile));
    const leak = /^\/\/ (\.\.\/|\/)\S*$|\/npm\/|\.cache\//m.exec(js);
    if (leak) throw new Error(`the bundle names a file outside the repository: ${leak[0]}`);
    const lifted = staticImports(js);
    if (lifted.length > 0) throw new Error(`the bundle imports ${lifted.join(", ")} at its top: import it lazily`);
    return js;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The whole text of the bundle file: header, then the bundle. */
export async function bundleFileText(): Promise<string> {
  const inputs = await bundleInputs();
  const header = [
    `// Generated by \`deno task bundle:gen\` (scripts/bundle.ts) from ${BUNDLE_ENTRY}. Do not edit.`,
    "// deno-fmt-ignore-file",
    "// deno-lint-ignore-file",
    "// @ts-nocheck",
    `// built-with: deno ${Deno.version.deno}`,
    `// inputs-sha256: ${await inputsHash(inputs)}`,
    ...inputs.map((f) => `// input: ${f}`),
  ];
  return header.join("\n") + "\n" + await bundleText();
}

/** Whether the bundle on disk was built from the files as they are now (by the recorded list). */
export async function bundleIsFresh(): Promise<boolean> {
  let text: string;
  try {
    text = await Deno.readTextFile(new URL(BUNDLE_PATH, ROOT));
  } catch {
    return false;
  }
  const header = readHeader(text);
  if (!header) return false;
  try {
    return header.hash === await inputsHash(header.inputs);
  } catch {
    return false; // an input is gone: the bundle is stale
  }
}

if (import.meta.main) {
  await runScript(
    "bundle:gen",
    { check: { type: "boolean" } },
    "deno task bundle:gen [--check]   write src/generated/dispatch_bundle.js; --check: exit 1 if it is stale",
    async (options) => {
      if (options.check) {
        const header = readHeader(await Deno.readTextFile(new URL(BUNDLE_PATH, ROOT)).catch(() => ""));
        const inputs = await bundleInputs();
        const fresh = header !== null && header.hash === await inputsHash(inputs) &&
          JSON.stringify(header.inputs) === JSON.stringify(inputs);
        if (!fresh) {
          console.error(`bundle:gen: ${BUNDLE_PATH} is stale: run deno task bundle:gen and commit it`);
          return 1;
        }
        console.log(`${BUNDLE_PATH} is up to date`);
        return 0;
      }
      await Deno.writeTextFile(new URL(BUNDLE_PATH, ROOT), await bundleFileText());
      console.log(`${BUNDLE_PATH} written`);
      return 0;
    },
  );
}
