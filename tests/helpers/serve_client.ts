/**
 * A JSON-RPC client of a real `mind-hooks serve` process (started as the CLI tests start the CLI,
 * tests/helpers/cli.ts): pipelined requests matched to their responses by id, notifications kept in
 * order, and a shutdown that waits for the process.
 * @module
 */
import { type CliOptions, spawnCli } from "./cli.ts";

/** One message from the server. */
export type RpcMessage = {
  jsonrpc: string;
  id?: unknown;
  method?: string;
  params?: unknown;
  // deno-lint-ignore no-explicit-any
  result?: any;
  error?: { code: number; message: string };
};

/** A client over one `serve` child. */
export class ServeClient {
  readonly child: Deno.ChildProcess;
  /** Notifications received, in order. */
  readonly notifications: RpcMessage[] = [];
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #pending = new Map<string, (m: RpcMessage) => void>();
  readonly #reading: Promise<void>;
  readonly #stderr: Promise<string>;
  #nextId = 1;

  private constructor(child: Deno.ChildProcess) {
    this.child = child;
    this.#writer = child.stdin.getWriter();
    this.#reading = this.#read();
    this.#stderr = new Response(child.stderr).text();
  }

  /** Starts `mind-hooks serve ARGS...`. */
  static async start(args: string[], opts: Omit<CliOptions, "stdin"> = {}): Promise<ServeClient> {
    return new ServeClient(await spawnCli(["serve", ...args], opts));
  }

  async #read(): Promise<void> {
    let buf = "";
    for await (const chunk of this.child.stdout.pipeThrough(new TextDecoderStream())) {
      buf += chunk;
      let nl: number;
      while ((nl = buf.indexOf("\n")) >= 0) {
        const msg = JSON.parse(buf.slice(0, nl)) as RpcMessage;
        buf = buf.slice(nl + 1);
        if ("id" in msg && msg.method === undefined) {
          const key = JSON.stringify(msg.id);
          const done = this.#pending.get(key);
          this.#pending.delete(key);
          done?.(msg);
        } else this.notifications.push(msg);
      }
    }
  }

  /** Sends one request; resolves with its response. */
  async request(method: string, params?: unknown): Promise<RpcMessage> {
    const id = this.#nextId++;
    const answered = new Promise<RpcMessage>((resolve) => this.#pending.set(JSON.stringify(id), resolve));
    const line = JSON.stringify({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) }) + "\n";
    await this.#writer.write(new TextEncoder().encode(line));
    return await answered;
  }

  /** A request's result; throws with the error when it failed. */
  // deno-lint-ignore no-explicit-any
  async call(method: string, params?: unknown): Promise<any> {
    const m = await this.request(method, params);
    if (m.error) throw new Error(`${method}: ${m.error.code} ${m.error.message}`);
    return m.result;
  }

  /** Shuts the server down (the `shutdown` request, then end of input); resolves with its exit code and stderr. */
  async close(): Promise<{ code: number; stderr: string }> {
    await this.request("shutdown").catch(() => {});
    await this.#writer.close().catch(() => {});
    const status = await this.child.status;
    await this.#reading.catch(() => {});
    return { code: status.code, stderr: await this.#stderr };
  }
}
