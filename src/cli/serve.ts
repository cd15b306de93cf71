/**
 * `mind-hooks serve [options]`: the long-lived JSON-RPC 2.0 server on stdin/stdout (SPEC §13). The
 * common options given here are the defaults of every request; a request's `options` override them.
 * Exits 0 after `shutdown`, at end of input, or on SIGTERM/SIGINT (each a clean shutdown, in which
 * running hooks get at most `SHUTDOWN_GRACE_MS`, src/serve/server.ts); a second signal ends it at
 * once, killing the running hooks' process groups.
 * @module
 */
import type { RunIo } from "../sandbox/launch.ts";
import { writeAll } from "../util/stdio.ts";
import { type ParsedArgs, UsageError } from "../util/args.ts";
import { fromCliValues } from "../engine/settings.ts";

/** Runs the command; exits the process when serving ends. */
export async function serveCommand({ options, positionals }: ParsedArgs, io: RunIo): Promise<number> {
  if (positionals.length > 0) throw new UsageError(`serve takes no arguments (got ${JSON.stringify(positionals[0])})`);
  const { HookServer } = await import("../serve/server.ts");
  const server = new HookServer({
    defaults: fromCliValues(options),
    env: Deno.env.toObject(),
    processCwd: Deno.cwd(),
    write: (bytes) => writeAll(Deno.stdout, bytes),
  });
  const { killRunning, onTermination, signalExitCode } = await import("../runner/running.ts");
  let signalled = false;
  onTermination((signal) => {
    if (!signalled) {
      // A clean shutdown: what is in flight is answered, running hooks get SHUTDOWN_GRACE_MS.
      signalled = true;
      server.shutdown().finally(() => io.exit(0));
      return;
    }
    // A second signal: no more waiting.
    killRunning({ ending: true }).finally(() => io.exit(signalExitCode(signal)));
  });
  const code = await server.run(Deno.stdin.readable);
  // A pending stdin read, MCP child processes or timers must not keep the process alive.
  io.exit(code);
}
