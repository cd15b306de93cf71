/**
 * The dispatch bundle (src/generated/dispatch_bundle.js, `deno task bundle:gen`) is what `main.ts`
 * runs: it must be built from the sources as they are, hold no path of the machine that built it, and
 * load nothing at its top (a static import there would be paid by every dispatch).
 */
import { assertEquals } from "./helpers/assert.ts";
import {
  BUNDLE_PATH,
  bundleFileText,
  bundleInputs,
  inputsHash,
  readHeader,
  scrubPaths,
  staticImports,
} from "../scripts/bundle.ts";
import { entryModule } from "../main.ts";

const ROOT = new URL("../", import.meta.url);
const text = Deno.readTextFileSync(new URL(BUNDLE_PATH, ROOT));
const STALE = `${BUNDLE_PATH} is stale: run deno task bundle:gen and commit it`;

Deno.test("bundle: built from the module graph of src/cli/main.ts as it is now", async () => {
  const header = readHeader(text);
  const inputs = await bundleInputs();
  assertEquals(header?.inputs, inputs, STALE);
  assertEquals(header?.hash, await inputsHash(inputs), STALE);
});

Deno.test({
  name: "bundle: rebuilding it with the Deno that built it gives the same bytes",
  // Another Deno release may bundle with another esbuild: the hash check above still holds there.
  ignore: readHeader(text)?.deno !== Deno.version.deno,
  async fn() {
    assertEquals((await bundleFileText()) === text, true, STALE);
  },
});

Deno.test("bundle: imports nothing at its top and names no file of the machine that built it", () => {
  assertEquals(staticImports(text), []);
  assertEquals(/\/npm\/|\.cache\/|\/(root|home|Users|work)\//.test(text), false);
});

Deno.test("bundle: an npm module's cache path becomes npm:<package>@<version>/ (scoped too)", () => {
  assertEquals(
    scrubPaths(
      '// ../../../u/.cache/deno/npm/reg.example/smol-toml/1.9.1/dist/parse.js\n"../x/npm/r.example/@a/b/2.0.0/i.js"() {',
    ),
    '// npm:smol-toml@1.9.1/dist/parse.js\n"npm:@a/b@2.0.0/i.js"() {',
  );
});

Deno.test("staticImports: finds what loads before a module runs, never a lazy import()", () => {
  assertEquals(
    staticImports('import a from "x";\nexport { b } from "./y.js";\nimport "z";\nconst c = await import("w");'),
    ["x", "./y.js", "z"],
  );
});

Deno.test("main.ts: the bundle runs the command line; MIND_HOOKS_BUNDLE=off runs the sources", () => {
  const env = (v?: string) => ({ get: (k: string) => k === "MIND_HOOKS_BUNDLE" ? v : undefined });
  assertEquals(
    [entryModule(env()), entryModule(env("off")), entryModule(env("on"))],
    ["./src/generated/dispatch_bundle.js", "./src/cli/main.ts", "./src/generated/dispatch_bundle.js"],
  );
});
