/**
 * A spill write that fails on a full disk leaves no `<uuid>.txt` behind (SPEC §6 r4, §10): the
 * preview is returned without a path, and the session folder holds nothing. The full disk is real:
 * a 64 KiB tmpfs mounted in a private mount namespace (`unshare -rm`, no root, nothing else of the
 * machine sees it). Where user namespaces are not available the test is ignored.
 */
import { assertEquals } from "../../tests/helpers/assert.ts";

const UNSHARE = Deno.build.os === "linux" &&
  (() => {
    try {
      return new Deno.Command("unshare", { args: ["-rm", "true"], stderr: "null", stdout: "null" }).outputSync()
        .success;
    } catch {
      return false;
    }
  })();

Deno.test({
  name: "spill: a write that fails on a full disk (a 64 KiB tmpfs) leaves no file, and the preview has no path",
  ignore: !UNSHARE,
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
      const out = await new Deno.Command("unshare", {
        args: [
          "-rm",
          "sh",
          "-c",
          'mount -t tmpfs -o size=64k tmpfs "$1" && shift && exec "$@"',
          "sh",
          mount,
          Deno.execPath(),
          "eval",
          script,
          mount,
        ],
        stdout: "piped",
        stderr: "piped",
      }).output();
      const stderr = new TextDecoder().decode(out.stderr);
      assertEquals(out.code, 0, stderr);
      assertEquals(JSON.parse(new TextDecoder().decode(out.stdout)), { spilled: true, path: null, left: [] });
    } finally {
      await Deno.remove(mount, { recursive: true });
    }
  },
});
