/**
 * A real full disk for a test, without root and without touching the machine: a small tmpfs mounted
 * in a private mount namespace (`unshare -rm`) that only the one command run inside it sees. Where
 * user namespaces are not available, {@link FULL_DISK_AVAILABLE} is false and the tests using it are
 * ignored (they say so in their names' module comments).
 * @module
 */

/** True when `unshare -rm` works here (Linux with unprivileged user namespaces). */
export const FULL_DISK_AVAILABLE: boolean = Deno.build.os === "linux" && (() => {
  try {
    return new Deno.Command("unshare", { args: ["-rm", "true"], stderr: "null", stdout: "null" }).outputSync().success;
  } catch {
    return false;
  }
})();

/**
 * Runs `deno eval <script> <args...>` with a `kib`-KiB tmpfs mounted over `mount` (an existing
 * folder): the script sees that folder fill up after `kib` KiB. Returns the script's stdout, or
 * throws with its stderr when it failed.
 */
export async function evalOnSmallDisk(mount: string, kib: number, script: string, args: string[]): Promise<string> {
  const out = await new Deno.Command("unshare", {
    args: [
      "-rm",
      "sh",
      "-c",
      'mount -t tmpfs -o size="$1"k tmpfs "$2" && shift 2 && exec "$@"',
      "sh",
      String(kib),
      mount,
      Deno.execPath(),
      "eval",
      script,
      ...args,
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(`the script failed (exit ${out.code}): ${new TextDecoder().decode(out.stderr)}`);
  return new TextDecoder().decode(out.stdout);
}
