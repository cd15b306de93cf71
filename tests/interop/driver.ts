/**
 * One interop run, executed inside a loopback-only network namespace by interop_test.ts: starts the mock
 * model on 127.0.0.1, runs the real host CLI against it, and writes what happened to a report file.
 *
 * Usage: deno run -A driver.ts SPEC.json  (the spec is a DriverSpec; the report a DriverReport)
 * @module
 */
import { type Recorded, startMockModel } from "./mock_model.ts";

/** What to run. `{{ORIGIN}}` in `env` values and in `files` contents is replaced by the mock's origin. */
export type DriverSpec = {
  bin: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  files: Record<string, string>;
  command: string;
  finalText: string;
  /** Number each final text (see MockScript). */
  numbered?: boolean;
  /** Another tool call instead of the shell call (see MockScript). */
  tool?: { name: string; args: Record<string, unknown> };
  /** Tool calls before the final text (see MockScript). */
  toolTurns?: number;
  /** The mock's port, its http hooks' answers and its prompt hooks' judge (see MockScript). */
  port?: number;
  hooks?: Record<string, unknown>;
  judge?: { marker: string; text: string };
  /** When set, the host runs under `strace -f`, its connect/sendto calls written to this file. */
  strace?: { bin: string; out: string };
  report: string;
  timeoutMs: number;
};

/** What happened. */
export type DriverReport = {
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  durationMs: number;
  requests: Recorded[];
};

if (import.meta.main) {
  const spec: DriverSpec = JSON.parse(await Deno.readTextFile(Deno.args[0]));
  const mock = startMockModel({
    command: spec.command,
    finalText: spec.finalText,
    numbered: spec.numbered,
    tool: spec.tool,
    toolTurns: spec.toolTurns,
    port: spec.port,
    hooks: spec.hooks,
    judge: spec.judge,
  });
  const sub = (s: string) => s.replaceAll("{{ORIGIN}}", mock.origin);
  for (const [path, text] of Object.entries(spec.files)) await Deno.writeTextFile(path, sub(text));
  const env = Object.fromEntries(Object.entries(spec.env).map(([k, v]) => [k, sub(v)]));
  const t0 = performance.now();
  let report: DriverReport;
  try {
    const [bin, args] = spec.strace
      ? [spec.strace.bin, ["-f", "-qq", "-e", "trace=connect,sendto", "-o", spec.strace.out, spec.bin, ...spec.args]]
      : [spec.bin, spec.args];
    const out = await new Deno.Command(bin, {
      args,
      cwd: spec.cwd,
      env,
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(spec.timeoutMs),
    }).output();
    report = {
      code: out.code,
      signal: out.signal,
      stdout: new TextDecoder().decode(out.stdout),
      stderr: new TextDecoder().decode(out.stderr),
      durationMs: performance.now() - t0,
      requests: mock.requests,
    };
  } catch (e) {
    report = {
      code: null,
      signal: null,
      stdout: "",
      stderr: `driver: ${e instanceof Error ? e.message : String(e)}`,
      durationMs: performance.now() - t0,
      requests: mock.requests,
    };
  }
  await mock.close();
  await Deno.writeTextFile(spec.report, JSON.stringify(report));
}
