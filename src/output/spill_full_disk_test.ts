/**
 * A spill write that fails on a full disk leaves no `<uuid>.txt` behind (SPEC §6 r4, §10): the
 * preview is returned without a path, and the session folder holds nothing. The full disk is real:
 * a 64 KiB tmpfs in a private mount namespace (tests/helpers/full_disk.ts); ignored where user
 * namespaces are not available.
 */
import { assertEquals } from "../../tests/helpers/assert.ts";
import { evalOnSmallDisk, FULL_DISK_AVAILABLE } from "../../tests/helpers/full_disk.ts";

Deno.test({
  name: "spill: a write that fails on a full disk (a 64 KiB tmpfs) leaves no file, and the preview has no path",
  ignore: !FULL_DISK_AVAILABLE,
  async fn() {
    const mount = await Deno.makeTempDir({ prefix: "mind-spill-full-" });
    try {
      const spill = new URL("./spill.ts", import.meta.url).href;
      const script = `
        const { spillIfLarge } = await import(${JSON.stringify(spill)});
        const r = await spillIfLarge("x".repeat(1024 * 1024), { limit: 100, tempDir: Deno.args[0], sessionId: "s1" });
        const left = [];
        for await (const e of Deno.readDir(Deno.args[0] + "/hook_outputs/s1")) left.push(e.name);
        console.log(JSON.stringify({ spilled: r.spilled, path: r.path, left }));`;
      const out = await evalOnSmallDisk(mount, 64, script, [mount]);
      assertEquals(JSON.parse(out), { spilled: true, path: null, left: [] });
    } finally {
      await Deno.remove(mount, { recursive: true });
    }
  },
});
