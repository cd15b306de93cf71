/**
 * What the benchmarks share: how the CLI is started (`deno run` of main.ts, or a compiled binary),
 * whole-process timing with stdin, statistics, a bare hook run as the engine runs one, and a minimal
 * JSON-RPC client of `serve`.
 *
 * Hooks run with `SHELL=/bin/sh` (the bare runs too): a login bash reads profile files that can take
 * hundreds of milliseconds on some machines, noise that would drown the figures.
 * @module
 */

/** The repository root (no trailing slash). */
export const ROOT: string = decodeURIComponent(new URL("../", import.meta.url).pathname).replace(/\/$/, "");
/** The shell hooks run under in every benchmark. */
export const SHELL = "/bin/sh";

/** JSON objects. */
export type Json = Record<string, unknown>;

/** The words that start mind-hooks: `deno run … main.ts`, or the compiled binary `bin`. */
export function cliWords(bin?: string): string[] {
  return bin
    ? [bin]
    : [Deno.execPath(), "run", "-q", "-P", "--no-prompt", "--config", `${ROOT}/deno.json`, `${ROOT}/main.ts`];
}

/** The median of `xs` (the mean of the middle two for an even count). */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** The `p`th percentile of `xs`. */
export function percentile(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

/** Runs `words` with `stdin` (then closed), output discarded; resolves with the wall time in ms. Throws on failure. */
export async function timeRun(
  words: readonly string[],
  stdin = "",
  env?: Record<string, string>,
  cwd?: string,
): Promise<number> {
  const t0 = performance.now();
  const child = new Deno.Command(words[0], {
    args: words.slice(1),
    cwd,
    stdin: "piped",
    stdout: "null",
    stderr: "piped",
    env,
  }).spawn();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(stdin)).catch(() => {});
  await w.close().catch(() => {});
  const out = await child.output();
  const ms = performance.now() - t0;
  if (!out.success) {
    throw new Error(`${words.join(" ")} exited ${out.code}: ${new TextDecoder().decode(out.stderr).slice(-500)}`);
  }
  return ms;
}

/** Runs the hook command `hook` bare, the way the engine does (`$SHELL -lc`, the event on stdin, output captured). */
export async function runBare(hook: string, stdin: string, cwd = "/"): Promise<number> {
  const started = performance.now();
  const child = new Deno.Command(SHELL, {
    args: ["-lc", hook],
    cwd,
    env: { SHELL, MIND_HOOK_EVENT: "UserPromptSubmit" },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    detached: true,
  }).spawn();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(stdin)).catch(() => {});
  await w.close().catch(() => {});
  await child.output();
  return performance.now() - started;
}

/**
 * A minimal JSON-RPC client over a serve child. It reads lines directly (no stream pipeline, no
 * promise map) so that the client's own machinery adds as little as possible to the round trips.
 */
export class ServeClient {
  readonly child: Deno.ChildProcess;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly #encoder = new TextEncoder();
  readonly #decoder = new TextDecoder();
  #buf = "";
  #id = 0;

  constructor(args: string[], bin?: string) {
    const [cmd, ...rest] = cliWords(bin);
    this.child = new Deno.Command(cmd, {
      args: [...rest, "serve", ...args],
      env: { SHELL },
      stdin: "piped",
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    this.#writer = this.child.stdin.getWriter();
    this.#reader = this.child.stdout.getReader();
  }

  async #readLine(): Promise<Json> {
    let nl: number;
    while ((nl = this.#buf.indexOf("\n")) < 0) {
      const { value, done } = await this.#reader.read();
      if (done) throw new Error("serve closed its stdout");
      this.#buf += this.#decoder.decode(value, { stream: true });
    }
    const line = this.#buf.slice(0, nl);
    this.#buf = this.#buf.slice(nl + 1);
    return JSON.parse(line);
  }

  /** Sends many requests in one write; returns every response (in completion order). */
  async batch(method: string, params: Json[]): Promise<Json[]> {
    let text = "";
    for (const p of params) text += JSON.stringify({ jsonrpc: "2.0", id: ++this.#id, method, params: p }) + "\n";
    await this.#writer.write(this.#encoder.encode(text));
    const out: Json[] = [];
    while (out.length < params.length) {
      const m = await this.#readLine();
      if (m.error) throw new Error(JSON.stringify(m.error));
      if (m.id !== undefined) out.push(m);
    }
    return out;
  }

  /** One request, its response. */
  async call(method: string, params: Json): Promise<Json> {
    return (await this.batch(method, [params]))[0];
  }

  /** Shuts the server down and waits for it. */
  async close(): Promise<void> {
    await this.call("shutdown", {}).catch(() => {});
    await this.#writer.close().catch(() => {});
    await this.#reader.cancel().catch(() => {});
    await this.child.status;
  }
}
