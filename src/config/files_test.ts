/**
 * The parse the fast-path decision hands to discovery (src/config/files.ts `handOver`): taken once,
 * and only for the very same bytes.
 */
import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import { loadConfigFile } from "./files.ts";

Deno.test("loadConfigFile handOver: the next load of the same bytes takes the parse, once; changed bytes are parsed", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mind-handover-" });
  try {
    const path = `${dir}/config.toml`;
    await Deno.writeTextFile(path, '[tui]\ntheme = "dark"\n');
    const kept = await loadConfigFile(path, "toml", { handOver: true });
    const taken = await loadConfigFile(path, "toml");
    assert(kept.ok && taken.ok);
    assert(kept.value.data === taken.value.data, "the same parse");
    const again = await loadConfigFile(path, "toml");
    assert(again.ok && again.value.data !== kept.value.data, "taken once");
    assertEquals(again.value.data, kept.value.data);

    await loadConfigFile(path, "toml", { handOver: true });
    await Deno.writeTextFile(path, '[tui]\ntheme = "light"\n');
    const changed = await loadConfigFile(path, "toml");
    assert(changed.ok);
    assertEquals(changed.value.data, { tui: { theme: "light" } });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
