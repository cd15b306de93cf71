/**
 * `mind-hooks review` (SPEC §14): a full-screen terminal UI over the catalog —
 * move between hooks, read the full definition, its file and line, status,
 * coverage and hashes, see what changed in a `modified` hook, and trust,
 * untrust, enable or disable hooks (one, or all needing review) or the
 * project. Each action is written at once and the screen reloaded from disk.
 *
 * Renderer: a small one of our own (src/review/render.ts and its pieces) that
 * paints whole frames with plain ANSI sequences on the alternate screen. It
 * adds no dependency and nothing to start-up, and it gives what prompt
 * libraries do not: a list over (or, from 180 columns, beside) the details, an
 * always-visible key legend, a `?` overlay with every key, and single-key
 * actions applied in place.
 *
 * Without a terminal on stdin and stdout it exits 1 and points at `list` and
 * `trust`. The terminal is restored (raw mode off, main screen, cursor shown)
 * on every way out: quit, Ctrl-C, end of input, an error, or SIGINT / SIGTERM
 * / SIGHUP from outside.
 * @module
 */
import { printResync } from "./state.ts";
import type { RunIo } from "../sandbox/launch.ts";
import { writeAllSync } from "../util/stdio.ts";
import { type ParsedArgs, UsageError } from "../util/args.ts";
import { cliSettings } from "./context.ts";
import { configOptionsOf, searchStart } from "../engine/settings.ts";
import { loadCatalog } from "../config/discovery.ts";
import { ReviewApp } from "../review/app.ts";
import { parseKeys } from "../review/keys.ts";
import { pageSizes, renderFrame, type RenderOptions } from "../review/render.ts";

const ENTER = "\x1b[?1049h\x1b[?25l\x1b[?7l\x1b[2J";
const LEAVE = "\x1b[0m\x1b[?7h\x1b[?25h\x1b[?1049l";

const encoder = new TextEncoder();

function writeAll(text: string): void {
  writeAllSync(Deno.stdout, encoder.encode(text));
}

function terminalSize(): { columns: number; rows: number } {
  try {
    const { columns, rows } = Deno.consoleSize();
    if (columns > 0 && rows > 0) return { columns, rows };
  } catch {
    // not a console after all: fall back to the classic size
  }
  return { columns: 80, rows: 24 };
}

/** Runs the command. */
export async function reviewCommand({ options, positionals }: ParsedArgs, io: RunIo): Promise<number> {
  if (positionals.length) throw new UsageError(`review takes no arguments (got ${JSON.stringify(positionals[0])})`);
  if (!Deno.stdin.isTerminal() || !Deno.stdout.isTerminal()) {
    throw new UsageError(
      "review needs an interactive terminal; use mind-hooks list to see the hooks and mind-hooks trust KEY... to trust them",
    );
  }
  const settings = cliSettings(options);
  const env = settings.env;
  const cfg = configOptionsOf(settings, searchStart(settings));
  const created = await ReviewApp.create(() => loadCatalog(cfg));
  if (!created.ok) throw new UsageError(created.error);
  const app = created.value;
  // `r` on a hook awaiting trust replays the recorded events with it trusted (SPEC §16).
  app.replayer = async (hook) => {
    const { replayHook } = await import("../review/replay_pane.ts");
    const tails = new Map(app.view.hooks.map((h) => [h.key, h.tail]));
    return await replayHook(settings, hook.key, hook.event, (k) => tails.get(k) ?? k);
  };
  const color = !env.NO_COLOR;
  const code = await runTerminal(app, color, io);
  // Trust changed in the review: recorded `install --sync` entries follow (SPEC §6 r3).
  await printResync(settings);
  return code;
}

/** The full-screen loop; restores the terminal however it ends. */
async function runTerminal(app: ReviewApp, color: boolean, io: RunIo): Promise<number> {
  const listeners: [Deno.Signal, () => void][] = [];
  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    for (const [sig, fn] of listeners) {
      try {
        Deno.removeSignalListener(sig, fn);
      } catch {
        // already gone
      }
    }
    try {
      writeAll(LEAVE);
    } catch {
      // stdout is gone (terminal closed): nothing left to restore on it
    }
    try {
      Deno.stdin.setRaw(false);
    } catch {
      // stdin is gone too
    }
  };
  const options = (): RenderOptions => ({ ...terminalSize(), color });
  const draw = () => {
    const lines = renderFrame(app, options());
    // Each row is erased first and then painted whole: it is exactly as wide as the terminal, and
    // with autowrap off the cursor stays on its last cell, so an erase after it would wipe that cell.
    writeAll(lines.map((l, i) => `\x1b[${i + 1};1H\x1b[2K${l}`).join(""));
  };
  const onSignal = (sig: Deno.Signal, code: number) => {
    const fn = () => {
      restore();
      io.exit(code);
    };
    try {
      Deno.addSignalListener(sig, fn);
      listeners.push([sig, fn]);
    } catch {
      // this platform does not deliver that signal
    }
  };
  try {
    Deno.stdin.setRaw(true);
    writeAll(ENTER);
    onSignal("SIGINT", 130);
    onSignal("SIGTERM", 143);
    onSignal("SIGHUP", 129);
    try {
      const redraw = () => draw();
      Deno.addSignalListener("SIGWINCH", redraw);
      listeners.push(["SIGWINCH", redraw]);
    } catch {
      // no resize signal on this platform: the next key redraws
    }
    draw();
    const buf = new Uint8Array(4096);
    while (app.exitCode === null) {
      const n = await Deno.stdin.read(buf);
      if (n === null) {
        app.exitCode = 0;
        break;
      }
      for (const key of parseKeys(buf.slice(0, n))) {
        if (key === "ctrl-l") {
          writeAll("\x1b[2J");
          continue;
        }
        try {
          await app.handle(key, pageSizes(app, options()));
        } catch (e) {
          // A failed write must not take the screen down: say so, and show what is on disk now.
          app.message = { text: `failed: ${e instanceof Error ? e.message : String(e)}`, kind: "error" };
          await app.reload().catch(() => {});
        }
        if (app.exitCode !== null) break;
      }
      if (app.exitCode === null) draw();
    }
  } finally {
    restore();
  }
  return app.exitCode ?? 0;
}
