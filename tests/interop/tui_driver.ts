/**
 * One interactive interop run (the host's terminal UI, where `exec`/`-p` show nothing), executed inside the
 * loopback-only network namespace like driver.ts: starts the mock model on 127.0.0.1, runs the real host
 * CLI in a tmux session of its own (private socket), types the prompt, and polls the screen until it shows
 * what the test waits for (or the time is up); then writes the last screen and the model requests to a
 * report file.
 *
 * Usage: deno run -A tui_driver.ts SPEC.json  (the spec is a TuiSpec; the report a TuiReport)
 * @module
 */
import { type Recorded, startMockModel } from "./mock_model.ts";

/** What to run. `{{ORIGIN}}` in `env` values and in `files` is replaced by the mock's origin. */
export type TuiSpec = {
  bin: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  files: Record<string, string>;
  command: string;
  finalText: string;
  /** Typed once the UI is up, then Enter. */
  prompt: string;
  /** The screen text to wait for (a regular expression's source). */
  waitFor: string;
  socket: string;
  report: string;
  timeoutMs: number;
};

/** What the screen showed. */
export type TuiReport = { matched: boolean; screen: string; requests: Recorded[] };

async function tmux(socket: string, args: string[]): Promise<string> {
  const out = await new Deno.Command("tmux", { args: ["-S", socket, ...args], stdout: "piped", stderr: "piped" })
    .output();
  return new TextDecoder().decode(out.stdout);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

if (import.meta.main) {
  const spec: TuiSpec = JSON.parse(await Deno.readTextFile(Deno.args[0]));
  const mock = startMockModel({ command: spec.command, finalText: spec.finalText });
  const sub = (s: string) => s.replaceAll("{{ORIGIN}}", mock.origin);
  for (const [path, text] of Object.entries(spec.files)) await Deno.writeTextFile(path, sub(text));
  const env = Object.entries(spec.env).map(([k, v]) => `${k}=${sub(v)}`);
  const want = new RegExp(spec.waitFor);
  let screen = "";
  let matched = false;
  try {
    await tmux(spec.socket, [
      "new-session",
      "-d",
      "-s",
      "host",
      "-x",
      "200",
      "-y",
      "50",
      "-c",
      spec.cwd,
      "env",
      "-i",
      ...env,
      spec.bin,
      ...spec.args,
    ]);
    const end = Date.now() + spec.timeoutMs;
    // The UI is up once it draws anything; then the prompt goes in (text first, Enter apart: a composer
    // that receives both at once may take the Enter as part of a paste).
    while (Date.now() < end && (await tmux(spec.socket, ["capture-pane", "-p", "-t", "host"])).trim() === "") {
      await sleep(200);
    }
    await sleep(1500);
    await tmux(spec.socket, ["send-keys", "-t", "host", "-l", spec.prompt]);
    await sleep(500);
    await tmux(spec.socket, ["send-keys", "-t", "host", "Enter"]);
    while (Date.now() < end) {
      screen = await tmux(spec.socket, ["capture-pane", "-p", "-J", "-t", "host"]);
      if (want.test(screen.replaceAll("\n", " "))) {
        matched = true;
        break;
      }
      await sleep(300);
    }
  } finally {
    await tmux(spec.socket, ["kill-server"]).catch(() => "");
    await mock.close();
  }
  const report: TuiReport = { matched, screen, requests: mock.requests };
  await Deno.writeTextFile(spec.report, JSON.stringify(report));
}
