/**
 * The serve configuration cache never answers with a configuration older than the request (SPEC
 * §13: a trust granted in `review` applies to the next event): a request that arrives after a write
 * must not share a load that was already reading before it. The loader here reads a real file and
 * is held back until the test lets it finish, so the write lands exactly inside the load.
 */
import { assertEquals } from "../../tests/helpers/assert.ts";
import type { Catalog, ConfigOptions } from "../config/discovery.ts";
import { CatalogCache } from "./config_cache.ts";
import { ok, type Result } from "../util/result.ts";

type Versioned = Catalog & { version: string };

/** The version a cached load answered with (a failed load has none). */
function versionOf(r: Result<Catalog>): string | undefined {
  return r.ok ? (r.value as Versioned).version : undefined;
}

/** A loader of `file` whose every load waits for `release()` after reading it. */
function heldLoader(file: string) {
  const held: (() => void)[] = [];
  let started = 0;
  const load = async (_opts: ConfigOptions): Promise<Result<Catalog>> => {
    const version = await Deno.readTextFile(file);
    started++;
    await new Promise<void>((resolve) => held.push(resolve));
    return ok({ files: [file], version } as unknown as Versioned);
  };
  return {
    load,
    loadsStarted: () => started,
    /** Lets every held load finish. */
    release: () => held.splice(0).forEach((r) => r()),
  };
}

/** Waits until `n` loads have read the file (failing after 5 s: the loader was not used). */
async function loadsReading(loader: { loadsStarted(): number }, n: number): Promise<void> {
  const until = Date.now() + 5000;
  while (loader.loadsStarted() < n) {
    if (Date.now() > until) throw new Error(`${n} loads expected, ${loader.loadsStarted()} started`);
    await new Promise((r) => setTimeout(r, 1));
  }
}

Deno.test("config cache: a request after a write does not share the load that read the file before it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mind-cache-" });
  try {
    const file = `${dir}/config.toml`;
    await Deno.writeTextFile(file, "v1");
    const loader = heldLoader(file);
    const cache = new CatalogCache(() => {}, loader.load);
    const opts = { home: dir, cwd: dir } as ConfigOptions;

    const before = cache.get(opts); // starts load 1, which reads "v1" and is held
    await loadsReading(loader, 1);
    await Deno.writeTextFile(`${file}.tmp`, "v2");
    await Deno.rename(`${file}.tmp`, file); // an atomic replacement, as the state writer does
    const after = cache.get(opts); // arrives after the write
    const alsoAfter = cache.get(opts);
    loader.release();
    assertEquals(versionOf(await before), "v1");
    // The later requests wait for load 1, find its result stale, and share one load of their own.
    await loadsReading(loader, 2);
    loader.release();
    assertEquals([versionOf(await after), versionOf(await alsoAfter)], ["v2", "v2"]);
    assertEquals(cache.loads, 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("config cache: requests during a load of an unchanged configuration are answered by that one load", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mind-cache-" });
  try {
    const file = `${dir}/config.toml`;
    await Deno.writeTextFile(file, "v1");
    // Written a minute ago: not "racy" (modified around the load's start), so the load's result stands.
    const past = new Date(Date.now() - 60_000);
    await Deno.utime(file, past, past);
    const loader = heldLoader(file);
    const cache = new CatalogCache(() => {}, loader.load);
    const opts = { home: dir, cwd: dir } as ConfigOptions;
    const all = [cache.get(opts), cache.get(opts), cache.get(opts)];
    await loadsReading(loader, 1);
    loader.release();
    assertEquals((await Promise.all(all)).map(versionOf), ["v1", "v1", "v1"]);
    assertEquals(cache.loads, 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
