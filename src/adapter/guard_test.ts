/**
 * The registered command fails closed (SPEC §6 r4, src/adapter/guard.ts): run by a real `/bin/sh` as the
 * hosts run it, with the launcher missing, not starting, and present; recognised by install, uninstall,
 * doctor and discovery in its guarded form.
 */
import { assert, assertEquals, assertStringIncludes } from "../../tests/helpers/assert.ts";
import { guardedCommand, unguarded } from "./guard.ts";
import { isDelegatingCommand, launcherOf, registeredCommand } from "./settings.ts";
import { isDelegation } from "../util/delegation.ts";

const POSIX = Deno.build.os !== "windows";

/** Runs `command` as a host does (`/bin/sh -c`), `stdin` piped in. */
async function host(command: string, stdin = "{}") {
  const child = new Deno.Command("/bin/sh", {
    args: ["-c", command],
    env: { PATH: "/usr/bin:/bin" },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const w = child.stdin.getWriter();
  // A guard that refuses exits without reading its stdin, as the host sees it too.
  await w.write(new TextEncoder().encode(stdin)).catch(() => {});
  await w.close().catch(() => {});
  const out = await child.output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

Deno.test({
  name: "guard: a missing launcher blocks (exit 2) with one line naming the fix; Stop fails visibly (exit 1)",
  ignore: !POSIX,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "mind-guard-" });
    try {
      const p = `${dir}/bin/mind-hooks`;
      const pre = registeredCommand("claude", "PreToolUse", p, "mind-hooks install claude", "posix");
      const r = await host(pre);
      assertEquals(r.code, 2);
      assertEquals(r.stderr, `mind-hooks not found at ${p}: run mind-hooks install claude\n`);
      const stop = await host(registeredCommand("claude", "Stop", p, "mind-hooks install claude", "posix"));
      assertEquals(stop.code, 1);
      assertStringIncludes(stop.stderr, `mind-hooks not found at ${p}`);
      // A dangling link is missing too.
      await Deno.mkdir(`${dir}/bin`);
      await Deno.symlink(`${dir}/gone`, p);
      assertEquals((await host(pre)).code, 2);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "guard: a launcher that does not start (its interpreter gone) blocks; one that runs passes stdin and its exit",
  ignore: !POSIX,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "mind-guard-" });
    try {
      const p = `${dir}/mind hooks`;
      await Deno.writeTextFile(p, `#!${dir}/no-such-interpreter\n`, { mode: 0o755 });
      const cmd = registeredCommand("gemini", "PreToolUse", `'${p}'`, "mind-hooks install gemini", "posix");
      const broken = await host(cmd);
      assertEquals(broken.code, 2);
      assertStringIncludes(broken.stderr, `mind-hooks at ${p} did not start (exit 12`);
      assertStringIncludes(broken.stderr, "): run mind-hooks doctor\n");
      // A working launcher: what the host pipes in reaches it, its stdout and its exit code come back.
      await Deno.writeTextFile(p, `#!/bin/sh\necho "args: $*"; cat; exit 0\n`, { mode: 0o755 });
      const ok = await host(cmd, '{"hook_event_name":"BeforeTool"}');
      assertEquals(ok, {
        code: 0,
        stdout: `args: dispatch --protocol gemini\n{"hook_event_name":"BeforeTool"}`,
        stderr: "",
      });
      await Deno.writeTextFile(p, `#!/bin/sh\necho blocked >&2; exit 2\n`, { mode: 0o755 });
      assertEquals((await host(cmd)).code, 2);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("guard: the guarded command is still ours — recognised, its launcher and call read back", () => {
  const launcher = "'/opt/my tools/mind-hooks' --profile work";
  const cmd = registeredCommand("copilot", "PermissionRequest", launcher, "mind-hooks install copilot", "posix");
  assert(cmd.startsWith(`[ -x '/opt/my tools/mind-hooks' ] || { echo 'mind-hooks not found at /opt/my tools/`), cmd);
  assertEquals(unguarded(cmd), `${launcher} dispatch --protocol copilot --event permissionRequest`);
  assertEquals(launcherOf(cmd), launcher);
  assert(isDelegatingCommand("copilot", cmd));
  assert(!isDelegatingCommand("claude", cmd));
  assert(isDelegation(cmd), "discovery skips it in a foreign layer");
  // A bare name (--command, --force) is looked for on PATH by the same guard.
  const bare = guardedCommand({ launcher: "mh", invocation: "mh dispatch --protocol codex", code: 2, fix: "x" });
  assert(bare.startsWith("command -v mh >/dev/null 2>&1 || { echo 'mind-hooks not found: mh is not on PATH: run x'"));
  assertEquals(launcherOf(bare), "mh");
  // The old bare form, and other hosts' and mind's own protocol.
  assertEquals(launcherOf("/opt/mh dispatch --protocol claude"), "/opt/mh");
  assert(isDelegation("sh -c 'exec mh dispatch --protocol claude'"));
  assert(!isDelegation("mh dispatch --protocol mind"));
  assert(!isDelegatingCommand("claude", "mh dispatch --protocol claudex"));
  // Windows: the bare call.
  assertEquals(
    registeredCommand("claude", "Stop", "C:\\mh\\mind-hooks.cmd", "f", "windows"),
    "C:\\mh\\mind-hooks.cmd dispatch --protocol claude",
  );
});
