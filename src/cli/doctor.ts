/**
 * `mind-hooks doctor [options]` (SPEC §15): checks what a user comes for first — the configuration
 * files (parse errors), the trust state (hooks needing review), the four hosts (src/cli/doctor_hosts.ts:
 * installed, delegating, `--sync` in step, their launcher running) and the hook shell — then prints the
 * effective permission set of this run and proves it (inside the sandbox it tries a read and a write
 * outside the granted paths and a network connection, each of which Deno must refuse), and ends with
 * what to fix, one line each (or "nothing to fix", with the warnings still to read).
 *
 * Exit 0 when nothing needs fixing, 1 when something does (each item is printed with its fix).
 * @module
 */
import { type ParsedArgs, UsageError } from "../util/args.ts";
import { cliSettings } from "./context.ts";
import { configOptionsOf, homeNamedBy, searchStart } from "../engine/settings.ts";
import { type HookHandler, loadCatalog } from "../config/discovery.ts";
import { formatWarning } from "../config/warnings.ts";
import { dirname, join } from "../util/paths.ts";
import { sandboxPlan } from "../sandbox/launch.ts";
import { type Grant, type SandboxPlan, workerPermissions } from "../sandbox/plan.ts";
import { terminalLines } from "../util/terminal_text.ts";

/** The outcome of one probe. */
export type ProbeResult = { what: string; denied: boolean; detail: string };

function describe(g: Deno.PermissionOptionsObject[keyof Deno.PermissionOptionsObject]): string {
  if (g === true || g === "inherit") return "unrestricted";
  if (g === false || g === undefined || (Array.isArray(g) && g.length === 0)) return "none";
  return (g as (string | URL)[]).map(String).join(", ");
}

/** The kinds `permissionLines` prints, in order, each with the plan's reason when it has one. */
const KINDS = ["read", "write", "run", "net", "env", "sys", "ffi", "import"] as const;

/**
 * The permission table of a plan: a line per kind, each followed by its reason's line. Printed from
 * {@link workerPermissions}, the very object the Worker is started with, so what doctor shows is
 * what the Worker holds.
 */
export function permissionLines(plan: SandboxPlan): string[] {
  const perms = workerPermissions(plan);
  const why: Partial<Record<(typeof KINDS)[number], string>> = {
    ...plan.why,
    env: "hooks get the engine's environment",
  };
  return KINDS.flatMap((k) => [`  ${k.padEnd(6)} ${describe(perms[k])}`, ...(why[k] ? [`         (${why[k]})`] : [])]);
}

function outcome(what: string, e: unknown): ProbeResult {
  if (e instanceof Deno.errors.NotCapable || e instanceof Deno.errors.PermissionDenied) {
    return { what, denied: true, detail: "denied by Deno" };
  }
  return { what, denied: false, detail: `not denied by the sandbox (${e instanceof Error ? e.name : String(e)})` };
}

/** A path that no grant of `plan` covers, under `base` (or, when a grant covers `base` itself, beside the grant). */
function outside(plan: SandboxPlan, base: string, name: string): string {
  const granted = (g: Grant, p: string) =>
    g === true || (Array.isArray(g) && g.some((x) => p === x || p.startsWith(x.endsWith("/") ? x : x + "/")));
  // A temp dir inside the home (granted) would make every name below it granted: the loop below would
  // never end. Climb out of the grant first.
  while ((granted(plan.read, base) || granted(plan.write, base)) && dirname(base) !== base) base = dirname(base);
  let p = join(base, name);
  if (plan.read === true || plan.write === true) return p; // everything is granted: no path is outside
  for (let i = 0; granted(plan.read, p) || granted(plan.write, p); i++) p = join(base, `${name}-${i}`);
  return p;
}

/** Tries what the sandbox must refuse: a read and a write outside it, and a network connection. */
export async function probeSandbox(plan: SandboxPlan): Promise<ProbeResult[]> {
  const results: ProbeResult[] = [];
  // A file every POSIX system has, unless the plan grants it (then a made-up one beside it).
  const readTarget = Deno.build.os === "windows" ? "C:\\Windows\\win.ini" : outside(plan, "/etc", "passwd");
  try {
    await Deno.readTextFile(readTarget);
    results.push({ what: `read ${readTarget}`, denied: false, detail: "the read succeeded" });
  } catch (e) {
    results.push(
      e instanceof Deno.errors.NotFound
        ? { what: `read ${readTarget}`, denied: false, detail: "not denied (the file does not exist)" }
        : outcome(`read ${readTarget}`, e),
    );
  }
  const writeTarget = outside(plan, plan.facts.tempRoot, `mind-hooks-doctor-${crypto.randomUUID()}`);
  try {
    await Deno.writeTextFile(writeTarget, "doctor probe\n");
    await Deno.remove(writeTarget).catch(() => {});
    results.push({ what: `write ${writeTarget}`, denied: false, detail: "the write succeeded (file removed)" });
  } catch (e) {
    results.push(outcome(`write ${writeTarget}`, e));
  }
  // 192.0.2.1 (TEST-NET-1, RFC 5737) is never a configured MCP host; the attempt must fail before any
  // packet leaves, at the permission check.
  const host = "192.0.2.1";
  try {
    const conn = await Deno.connect({ hostname: host, port: 80 });
    conn.close();
    results.push({ what: `connect ${host}:80`, denied: false, detail: "the connection opened" });
  } catch (e) {
    results.push(outcome(`connect ${host}:80`, e));
  }
  return results;
}

/** Checks that the hook shell starts; returns a line and whether it needs fixing. */
async function checkShell(env: Record<string, string | undefined>): Promise<{ line: string; fix: string | null }> {
  if (Deno.build.os === "windows") {
    const comspec = env.ComSpec ?? env.COMSPEC ?? "cmd.exe";
    return { line: `shell: ${comspec} /S /C (Windows)`, fix: null };
  }
  const shell = env.SHELL || "/bin/sh";
  const started = performance.now();
  try {
    const out = await new Deno.Command(shell, {
      args: ["-lc", "exit 0"],
      stdin: "null",
      stdout: "null",
      stderr: "null",
    })
      .output();
    const ms = Math.round(performance.now() - started);
    if (!out.success) {
      return { line: `shell: ${shell} -lc exited ${out.code}`, fix: `make "${shell} -lc 'exit 0'" succeed` };
    }
    const slow = ms > 300
      ? `every hook pays ${ms} ms for the login profile of ${shell}; set SHELL=/bin/sh for the host, or slim the profile`
      : null;
    return { line: `shell: ${shell} -lc starts in ${ms} ms`, fix: slow };
  } catch (e) {
    return {
      line: `shell: ${shell} cannot start (${e instanceof Error ? e.message.split("\n")[0] : String(e)})`,
      fix: `set SHELL to an installed shell (hooks run as $SHELL -lc)`,
    };
  }
}

/** The sandbox's lines: the permission set of this run (a Worker's), then its proof. */
async function sandboxSection(out: string[], fixes: string[], args: ParsedArgs): Promise<void> {
  const plan = sandboxPlan();
  if (!plan) {
    out.push("  NOT sandboxed: MIND_HOOKS_SANDBOX=off (or not started through main.ts); the engine holds");
    out.push("  the whole static permission set of deno.json");
    fixes.push("unset MIND_HOOKS_SANDBOX to run the engine in its sandbox");
  } else {
    out.push(`  permissions of this run (a Worker; the same set as dispatch here):`);
    out.push(...permissionLines(plan));
    for (const n of plan.notes) out.push(`  note: ${n}`);
    const { sandboxReason } = await import("../sandbox/launch.ts");
    const why = await sandboxReason(plan, args);
    if (why) out.push(`  dispatch from ${plan.facts.searchFrom} runs in the sandbox: ${why}`);
    else {
      out.push(
        `  dispatch from ${plan.facts.searchFrom} takes the fast path (only your own and managed files are parsed):`,
        `    static permissions, network revoked unless an MCP server is configured`,
      );
    }
    out.push("  proof (each must be denied):");
    for (const r of await probeSandbox(plan)) {
      out.push(`    ${r.denied ? "ok  " : "FAIL"} ${r.what}: ${r.detail}`);
      if (!r.denied) fixes.push(`the sandbox let "${r.what}" through: report this as a security bug`);
    }
  }
}

/** Runs the command; returns the exit code. */
export async function doctorCommand({ options, positionals }: ParsedArgs): Promise<number> {
  if (positionals.length > 0) throw new UsageError(`doctor takes no arguments (got ${JSON.stringify(positionals[0])})`);
  const settings = cliSettings(options);
  const env = settings.env;
  const fixes: string[] = [];
  const out: string[] = [];
  let warnings = 0;
  // What a user comes for first: the configuration, the trust, the hosts, the shell; the sandbox's
  // permission table (a line of every granted path) and its proof last.
  out.push("configuration");
  const loaded = await loadCatalog(configOptionsOf(settings, searchStart(settings)));
  if (!loaded.ok) {
    out.push(`  -c: ${loaded.error}`);
    fixes.push(`fix the -c value: ${loaded.error}`);
  } else {
    const catalog = loaded.value;
    const broken = catalog.warnings.filter((w) => w.code === "W_PARSE" || w.code === "W_UNREADABLE");
    const other = catalog.warnings.length - broken.length;
    out.push(
      `  ${catalog.handlers.length} hook(s) from ${new Set(catalog.handlers.map((h) => h.sourcePath)).size} source(s)`,
    );
    for (const w of broken) {
      out.push(`  ${formatWarning(w)}`);
      // The trust store's own file has one fix, said under trust (SPEC §6): not a second one that disagrees.
      if (catalog.trustStoreProblem !== null && w.source === catalog.userConfigPath) continue;
      fixes.push(`fix ${w.source}${w.line ? `:${w.line}` : ""} (${w.code}); the rest of the configuration still loads`);
    }
    // Which layers the hooks come from, the other hosts' own (SPEC §2.8) among them.
    const byLayer = new Map<string, number>();
    for (const h of catalog.handlers) byLayer.set(h.layer, (byLayer.get(h.layer) ?? 0) + 1);
    if (byLayer.size > 0) out.push(`  by layer: ${[...byLayer].map(([l, n]) => `${l} ${n}`).join(", ")}`);
    // A Gemini CLI or Copilot CLI hook mind cannot run is named here too (SPEC §2.8 r4, §6).
    const { isUnrunnableHostHook } = await import("../engine/session_notice.ts");
    for (const w of catalog.warnings.filter(isUnrunnableHostHook)) out.push(`  not run: ${formatWarning(w)}`);
    if (other > 0) out.push(`  ${other} other warning(s): see mind-hooks list`);
    warnings = other;
    if (!catalog.hooksEnabled) out.push("  hooks are turned off ([features] hooks = false)");

    out.push("", "trust");
    // A home that does not exist (a typo in --home) trusts nothing: said, not silently empty.
    if (!(await Deno.stat(catalog.home).then((i) => i.isDirectory, () => false))) {
      out.push(`  ${
        (await import("../review/catalog_view.ts")).homeMissingLine(
          catalog.home,
          homeNamedBy(options.home as string | undefined, settings.env),
        )
      }`);
    }
    const store = catalog.trustStoreProblem;
    if (store !== null) {
      // SPEC §6: with the trust store unreadable the only fix is the file's, no trust advice.
      const { problemLine } = await import("../config/problems.ts");
      out.push(`  ${problemLine(store, catalog)}`);
      fixes.push(problemLine(store, catalog));
    }
    if (catalog.project) {
      out.push(`  project ${catalog.project.root}: ${catalog.project.trusted ? "trusted" : "NOT trusted"}`);
      if (!catalog.project.trusted && store === null) {
        fixes.push(`the project's hooks are not loaded: mind-hooks project trust ${catalog.project.root}`);
      }
    } else out.push("  no project layer here");
    // A hook is trusted only once its pinned files are checked (SPEC §3.5).
    const [{ checkPins }, { assessTrust }] = await Promise.all([
      import("../config/pinning.ts"),
      import("../trust/verdict.ts"),
    ]);
    const verdicts = assessTrust(catalog, catalog.handlers, await checkPins(catalog.handlers));
    const statusOf = (h: HookHandler) => verdicts.get(h.key)!.status;
    const review = catalog.handlers.filter((h) =>
      h.enabled && (statusOf(h) === "untrusted" || statusOf(h) === "modified")
    );
    const modified = review.filter((h) => statusOf(h) === "modified").length;
    out.push(`  ${review.length} hook(s) need review (${modified} modified since trusted)`);
    if (review.length > 0 && store === null) {
      fixes.push(`${review.length} hook(s) will not run until trusted: mind-hooks review`);
    }
  }

  // The hosts (issue 25): installed, delegating, in step, their launcher running.
  out.push("", "hosts");
  const root = (loaded.ok ? loaded.value.project?.root : undefined) ?? searchStart(settings);
  const { checkHosts } = await import("./doctor_hosts.ts");
  const hosts = await checkHosts(settings, root);
  out.push(...hosts.lines);
  fixes.push(...hosts.fixes);

  out.push("", "hook shell");
  const shell = await checkShell(env);
  out.push(`  ${shell.line}`);
  if (shell.fix) fixes.push(shell.fix);

  out.push("", "sandbox");
  await sandboxSection(out, fixes, { options, positionals });

  out.push("");
  // Nothing to fix is not "nothing to see": the warnings are said with it.
  if (fixes.length === 0) {
    out.push(warnings > 0 ? `nothing to fix; ${warnings} warning(s) to read: mind-hooks list` : "nothing to fix");
  } else for (const f of fixes) out.push(`fix: ${f}`);
  // One entry per line, each sanitised whole: paths and warnings come from the input (SPEC §15).
  console.log(terminalLines(out));
  return fixes.length === 0 ? 0 : 1;
}
