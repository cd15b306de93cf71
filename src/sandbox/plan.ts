/**
 * The sandbox plan (SPEC §15 "Sandbox"): which paths, programs and hosts one run of the engine may
 * touch, resolved at run time from the command line and the environment, before any configuration
 * file is read. The entry point (src/sandbox/launch.ts) then runs the command in a Worker whose Deno
 * permissions are exactly this plan, so Deno itself refuses everything else.
 *
 * The static set in deno.json (`permissions.default`, loaded by `-P`) is the ceiling: Deno cannot
 * express "this user's home" in a flag baked into a compiled binary, so the ceiling is broad and
 * this module narrows it per run. Computing a plan reads no configuration file: it stats paths,
 * resolves symlinks and lists `$MIND_HOME/plugins/`, nothing more — parsing what strangers commit
 * happens only inside the sandbox.
 * @module
 */
import {
  absolute,
  atomicTempPath,
  isInside,
  join,
  osUserHome,
  searchDirs,
  userTempFolder,
  writeTargetSync,
} from "../util/paths.ts";
import { FOREIGN_LAYERS, foreignFolder, foreignUserFiles } from "../config/foreign_layout.ts";
import type { ParsedArgs } from "../util/args.ts";
import { fromCliValues, resolveSettings } from "../engine/settings.ts";
import { launcherCandidates, launcherProgram } from "../util/launcher.ts";
import { HOSTS, isHost } from "../adapter/host_names.ts";
import { runDirectoryPaths } from "../engine/run_cwd.ts";
import { type PathFacts, pathFactsOf } from "../util/path_facts.ts";
import type { SandboxNeeds } from "./needs.ts";
import { throwawayDir } from "../testing/throwaway.ts";
import { SETSID } from "../runner/shell.ts";

/** One permission of the plan: `true` = unrestricted, `false` = none, a list = only those. */
export type Grant = boolean | string[];

/** The narrowed permission set of one run, with the reason for each grant. */
export type SandboxPlan = {
  /** The command the plan is for. */
  command: string;
  read: Grant;
  write: Grant;
  run: Grant;
  net: Grant;
  /** The engine hands its environment to hooks (SPEC §7.1), so it may read it. */
  env: true;
  /** Only the process's own uid (`Deno.uid()`), for the spill folder's owner check (SPEC §10). */
  sys: false | ["uid"];
  ffi: false;
  /** Why each non-empty grant is there, one line per kind, for `doctor` and SECURITY.md. */
  why: Partial<Record<"read" | "write" | "run" | "net" | "sys", string>>;
  /** Deliberate widenings (e.g. `run` unrestricted because LD_PRELOAD is set), each one line. */
  notes: string[];
  /** Resolved facts the launcher and `doctor` reuse. */
  facts: PlanFacts;
};

/** Paths and programs resolved while planning. */
export type PlanFacts = {
  /** The application home; null when none can be found (SPEC §1 r3: only dispatch runs then). */
  home: string | null;
  tempRoot: string;
  spillDir: string;
  /** Where the project search starts (`--cwd`, the event's cwd, else the process cwd). */
  searchFrom: string;
  requirements: string;
  shells: string[];
  /** Environment variables that force an unrestricted `run` (Deno refuses to spawn with them otherwise). */
  loaderVars: string[];
  /**
   * What the launcher found at paths the Worker may not stat (src/util/path_facts.ts): the `.git` of
   * every ancestor of the project search (SPEC §2.8 r3, the repository's top) and, for dispatch, the
   * event's cwd and its ancestors (SPEC §7.1 r3, where hooks run when the cwd is gone).
   */
  pathFacts?: PathFacts;
};

/** The inputs of planning: the command line (as the command parsed it), the environment and the process cwd. */
export type PlanInput = {
  /** The command's name (the Worker's name, what doctor prints). */
  command: string;
  /** What the command declares it needs (its entry in src/cli/commands.ts): the plan is made from this. */
  needs: SandboxNeeds;
  args: ParsedArgs;
  env: Record<string, string | undefined>;
  processCwd: string;
  /** dispatch only: the `cwd` field of the event read from stdin, when it has one. */
  eventCwd?: string;
  /** Roots whose files pinned-file checks read (SPEC §3.5): the trusted project in reach. */
  pinRoots?: string[];
  /** HTTP MCP hosts (`host:port`) and stdio MCP programs, when a planning pass found them. */
  mcp?: { hosts: string[]; programs: string[] };
  os?: typeof Deno.build.os;
};

/** Environment variables with which Deno spawns only under an unrestricted `run` permission. */
export function loaderVariables(env: Record<string, string | undefined>): string[] {
  return Object.keys(env).filter((k) => /^(LD_|DYLD_)/.test(k)).sort();
}

async function real(path: string): Promise<string | null> {
  try {
    return await Deno.realPath(path);
  } catch {
    return null;
  }
}

/** `path` and, when it differs and exists, its real path: Deno checks the path as the engine names it. */
async function bothForms(path: string): Promise<string[]> {
  const r = await real(path);
  return r && r !== path ? [path, r] : [path];
}

/**
 * The marker candidates of the project search (SPEC §2.3, §2.8) from `start`, for the given and the
 * real path: `.mind` and every foreign layer's folder (`.claude`, `.codex`, `.gemini`, `.github/hooks`) of
 * every ancestor — except the user's own (never a project marker, and they hold that host's credentials:
 * not granted).
 */
async function projectChain(
  start: string,
  userHome?: string,
): Promise<{ reads: string[]; needsStart: boolean; gits: string[] }> {
  const r = await real(start);
  const homes = new Set(userHome ? await bothForms(userHome) : []);
  const reads = new Set<string>();
  const gits = new Set<string>();
  for (const base of r && r !== start ? [start, r] : [start]) {
    for (const dir of searchDirs(base)) {
      reads.add(join(dir, ".mind"));
      // Not granted (a .git holds the remotes' credentials at times): the launcher says whether it is there.
      gits.add(join(dir, ".git"));
      if (homes.has(dir)) continue;
      for (const l of FOREIGN_LAYERS) reads.add(join(dir, foreignFolder(l)));
    }
  }
  // The engine resolves the start's real path, which Deno allows only with read access to the start
  // itself (and so to everything below it). When the start is already real, the fallback of that
  // failed resolution gives the same path, so the grant is not needed.
  return { reads: [...reads], needsStart: r !== null && r !== start, gits: [...gits] };
}

/**
 * The nearest folder from `start` up that holds a project marker (`.mind`, `.claude`, `.codex`), by
 * stat alone (the plan reads no configuration): the project a throw-away copy is made of.
 */
async function projectRootByStat(start: string, userHome: string | undefined): Promise<string | null> {
  const homes = new Set(userHome ? await bothForms(userHome) : []);
  for (const dir of searchDirs((await real(start)) ?? start)) {
    // The user's own ~/.mind, ~/.claude and ~/.codex are no project's markers (the home is never copied).
    if (homes.has(dir)) continue;
    for (const marker of [".mind", ".claude", ".codex"]) {
      try {
        if ((await Deno.stat(join(dir, marker))).isDirectory) return dir;
      } catch { /* not here */ }
    }
  }
  return null;
}

/** The shell(s) hooks run under (SPEC §7.1) plus `/bin/sh`, which signals process groups on the engine's behalf. */
export function shellsFor(env: Record<string, string | undefined>, os: typeof Deno.build.os): string[] {
  if (os === "windows") {
    const comspec = Object.entries(env).find(([k, v]) => k.toUpperCase() === "COMSPEC" && v)?.[1] ?? "cmd.exe";
    const root = Object.entries(env).find(([k, v]) => k.toUpperCase() === "SYSTEMROOT" && v)?.[1];
    return [comspec, root ? `${root.replace(/[\\/]+$/, "")}\\System32\\taskkill.exe` : "taskkill.exe"];
  }
  const shell = env.SHELL || "/bin/sh";
  return shell === "/bin/sh" ? ["/bin/sh"] : [shell, "/bin/sh"];
}

/** The program that re-enters this engine (the detached async runner, SPEC §7.2). */
export function selfProgram(): string {
  return Deno.execPath();
}

async function pluginRoots(home: string): Promise<string[]> {
  const out: string[] = [];
  try {
    for await (const e of Deno.readDir(join(home, "plugins"))) {
      const r = await real(join(home, "plugins", e.name));
      if (r) out.push(r);
    }
  } catch { /* no plugins folder */ }
  return out;
}

/**
 * The files a state write really touches when the user's config.toml is a symlink (dotfile
 * managers: `~/.mind/config.toml -> ~/dotfiles/mind.toml`): the writer writes through the link,
 * so it reads and replaces the link's real target, locks the `.lock` beside it, and renames its
 * temp file (one name per process, `atomicTempPath`) over it. Exactly those three are granted
 * (`writes`), not the target's folder (which may be the whole home directory). A dangling link is
 * written through too (the file it names is created): then the links on the way are read, and
 * granted for reading (`reads`). Empty when the config is no symlink (the home grant covers it).
 */
export function configLinkTargets(home: string, pid: number): Promise<{ writes: string[]; reads: string[] }> {
  const config = join(home, "config.toml");
  try {
    if (!Deno.lstatSync(config).isSymlink) return Promise.resolve({ writes: [], reads: [] });
    const { target, links } = writeTargetSync(config);
    return Promise.resolve({ writes: [target, `${target}.lock`, atomicTempPath(target, pid)], reads: links });
  } catch {
    return Promise.resolve({ writes: [], reads: [] }); // missing, or a loop: nothing is written through it
  }
}

/**
 * What re-syncing the recorded `install --sync` entries touches (src/adapter/resync.ts): each one's
 * settings file and its temp file (read, write; a linked file's target and the temp file beside it too),
 * and the project chain it loads hooks from (read). Reads `$MIND_HOME/installs.json` — mind-hooks' own record, no
 * configuration — and only when it exists.
 */
async function syncedInstallGrants(
  home: string,
  userHome: string | undefined,
  pid: number,
): Promise<{ reads: string[]; writes: string[] }> {
  const reads: string[] = [];
  const writes: string[] = [];
  try {
    await Deno.stat(join(home, "installs.json"));
  } catch {
    return { reads, writes };
  }
  const [{ readInstalls }, { settingsWriteGrants }] = await Promise.all([
    import("../adapter/installs.ts"),
    import("../adapter/settings_target.ts"),
  ]);
  for (const r of (await readInstalls(home)).installs.filter((x) => x.sync)) {
    // The file and its one temp file, never the folder (`~/.claude` holds Claude Code's credentials).
    writes.push(...await settingsWriteGrants(r.file, r.project, pid));
    const chain = await projectChain(r.searchFrom, userHome);
    reads.push(...chain.reads);
    if (chain.needsStart) reads.push(r.searchFrom);
  }
  return { reads, writes };
}

/** The paths and programs of one run, from the command line and the environment alone (no file access). */
export function resolveFacts(input: PlanInput): PlanFacts {
  const os = input.os ?? Deno.build.os;
  const cwd = input.processCwd;
  // The same settings the command resolves (src/engine/settings.ts), from the same parse.
  const settings = resolveSettings(fromCliValues(input.args.options), input.env, cwd);
  const searchFrom = settings.cwd ?? (input.eventCwd ? absolute(input.eventCwd, cwd) : cwd);
  return {
    home: settings.home,
    tempRoot: settings.tempDir,
    spillDir: join(settings.tempDir, "hook_outputs"),
    searchFrom,
    requirements: settings.requirements,
    shells: shellsFor(input.env, os),
    loaderVars: loaderVariables(input.env),
  };
}

/** Builds the plan of one run. Reads no configuration file. */
export async function buildPlan(input: PlanInput): Promise<SandboxPlan> {
  const { options, positionals } = input.args;
  const text = (name: string) => typeof options[name] === "string" ? options[name] as string : undefined;
  const cwd = input.processCwd;
  const facts = resolveFacts(input);
  const { home, spillDir, searchFrom, requirements, shells, loaderVars } = facts;
  const plan: SandboxPlan = {
    command: input.command,
    read: false,
    write: false,
    run: false,
    net: false,
    env: true,
    sys: false,
    ffi: false,
    why: {},
    notes: [],
    facts,
  };
  const needs = input.needs;
  const seen = new Set<string>();
  if (needs.event && input.eventCwd !== undefined) {
    for (const p of runDirectoryPaths(input.eventCwd, cwd)) seen.add(p);
  }
  if (needs.reads === "log") {
    // The observation log and its rotated files, nothing else: it reads no configuration.
    if (home === null) return plan; // the command refuses to run without a home (SPEC §1 r3)
    const logs = join(home, "logs");
    plan.read = [...new Set([logs, ...((await real(logs)) ? [(await real(logs))!] : [])])];
    plan.why.read = "the observation log (<home>/logs)";
    return plan;
  }
  // schema, completions: they read nothing from disk.
  if (needs.reads === "nothing") return plan;

  const reads = new Set<string>();
  const add = async (set: Set<string>, p: string) => {
    for (const f of await bothForms(p)) set.add(f);
  };
  // Without a home (a dispatch, SPEC §1 r3) only the managed and CLI layers load: no home, no project
  // search, no plugins, no foreign user layers to read, and nothing of the home to write.
  if (home !== null) await add(reads, home);
  await add(reads, requirements);
  const hooksFiles = (options["hooks-file"] as string[] | undefined) ?? [];
  for (const f of hooksFiles) await add(reads, absolute(f, cwd));
  const userHome = osUserHome(input.env) ?? undefined;
  // The foreign user layers (SPEC §2.8 r3): their files only, whatever foreign_layers says (it is
  // read inside); the folders hold those hosts' credentials.
  if (home !== null) {
    for (const f of foreignUserFiles(userHome ?? null, FOREIGN_LAYERS)) await add(reads, f);
    const chain = await projectChain(searchFrom, userHome);
    for (const p of chain.reads) reads.add(p);
    for (const p of chain.gits) seen.add(p);
    if (chain.needsStart) reads.add(searchFrom);
    for (const p of await pluginRoots(home)) reads.add(p);
  }
  const readWhy = [
    "the home",
    "the requirements file",
    "the .mind/, .claude/, .codex/, .gemini/ and .github/hooks/ chain of the project search",
    "~/.claude/settings.json, ~/.codex/config.toml and ~/.codex/hooks.json, ~/.gemini/settings.json and its extensions, ~/.copilot/hooks (the foreign user layers)",
    "plugin roots",
  ];
  if (hooksFiles.length) readWhy.push("--hooks-file files");
  for (const p of input.pinRoots ?? []) await add(reads, p);
  if (input.pinRoots?.length) {
    readWhy.push("the project's tree (the files its hooks run are pinned; trusted, or for review any)");
  }

  const writes = new Set<string>();
  if (home !== null) await add(writes, home);
  const writeWhy = home === null ? [] : ["the home (state, trusted copies, logs, sessions, async jobs)"];

  if (needs.state && home !== null) {
    const linked = await configLinkTargets(home, Deno.pid);
    for (const p of linked.writes) {
      reads.add(p);
      writes.add(p);
    }
    for (const p of linked.reads) reads.add(p);
    if (linked.writes.length > 0) {
      readWhy.push("the symlinked config.toml's target, its lock and temp file");
      writeWhy.push("the symlinked config.toml's target, its lock and temp file (written through)");
    }
    // Recorded `install --sync` entries are re-synced after a change of trust (SPEC §6 r3).
    const synced = await syncedInstallGrants(home, userHome, Deno.pid);
    for (const p of synced.reads) reads.add(p);
    for (const p of synced.writes) {
      reads.add(p);
      writes.add(p);
    }
    if (synced.writes.length > 0) {
      readWhy.push(
        "recorded install --sync settings folders and the .mind/, .claude/ and .codex/ chain they sync from",
      );
      writeWhy.push("recorded install --sync settings folders (re-synced)");
    }
  }
  if (needs.args === "files") {
    for (const f of positionals) await add(reads, absolute(f, cwd));
    readWhy.push("the files named on the command line");
  }
  if (needs.args === "project-dir") {
    // The project command stats its DIR (default: --cwd, else the process cwd) before searching up.
    const dir = absolute(positionals[1] ?? text("cwd") ?? cwd, cwd);
    const named = await projectChain(dir, userHome);
    for (const p of named.reads) reads.add(p);
    for (const p of named.gits) seen.add(p);
    await add(reads, dir);
    readWhy.push("the project named on the command line");
  }
  if (needs.args === "host-settings") {
    // The host's own settings file (src/cli/install.ts): its folder, for the atomic sibling write.
    const host = positionals[0];
    // --local without --project means the working directory, as for install itself.
    const proj = text("project") ?? (options.local ? "." : undefined);
    const dirs: string[] = [];
    // Each host's own folder (src/adapter/<host>.ts), which install writes into, creates and may remove;
    // loaded only here, so that no other command pays for the adapters.
    const { ADAPTERS } = await import("../adapter/hosts.ts");
    if (proj !== undefined && options.sync) {
      // --sync loads the catalog from the project (src/adapter/sync.ts): its marker chain, as dispatch's.
      const synced = await projectChain(absolute(proj, cwd), userHome);
      for (const p of synced.reads) reads.add(p);
      for (const p of synced.gits) seen.add(p);
      readWhy.push("the .mind/, .claude/ and .codex/ chain of --project (--sync)");
    }
    const { settingsLinkGrants } = await import("../adapter/settings_target.ts");
    const linked: string[] = [];
    for (const h of isHost(host) ? [host] : HOSTS) {
      const spec = ADAPTERS[h].install;
      const scope = { local: options.local === true };
      if (proj !== undefined) {
        // install resolves the project's real path (and says so when it is missing) before it names the file.
        const dir = absolute(proj, cwd);
        await add(reads, dir);
        const realDir = (await real(dir)) ?? dir;
        for (const base of [dir, realDir]) {
          dirs.push(spec.folder({ project: base }, input.env, cwd).path);
        }
        const file = join(
          spec.folder({ project: realDir }, input.env, cwd).path,
          spec.file({ ...scope, project: realDir }),
        );
        linked.push(...await settingsLinkGrants(file, realDir, Deno.pid));
      } else {
        const folder = spec.folder({}, input.env, cwd).path;
        dirs.push(folder);
        linked.push(...await settingsLinkGrants(join(folder, spec.file(scope)), null, Deno.pid));
      }
    }
    for (const d of dirs) {
      // A project's host folder that is a link leaving the project is refused by install (issue 22
      // item 11): only its forms inside the project are granted.
      const inside = proj === undefined ? null : (await real(absolute(proj, cwd))) ?? absolute(proj, cwd);
      for (const f of await bothForms(d)) {
        if (inside !== null && f !== d && !isInside(inside, f)) continue;
        reads.add(f);
        writes.add(f);
      }
    }
    for (const p of linked) {
      reads.add(p);
      writes.add(p);
    }
    if (linked.length > 0) writeWhy.push("the linked settings file's target and its temp file (written through)");
    // The launcher check stats the program's candidate files on PATH (src/util/launcher.ts), nothing else.
    const os = (input.os ?? Deno.build.os) === "windows" ? "windows" : "posix";
    const found = launcherCandidates(launcherProgram(text("command") ?? "mind-hooks"), input.env, os);
    if (found.ok) { for (const f of found.value) reads.add(f); }
    readWhy.push("the host's settings folder", "the launcher's candidate files on PATH");
    writeWhy.push("the host's settings folder");
  }
  if (needs.args === "host-checks") {
    // Its hosts check (src/cli/doctor_hosts.ts): the hosts' settings files, their commands and launchers.
    const { hostCheckReads } = await import("../adapter/host_files.ts");
    const os = (input.os ?? Deno.build.os) === "windows" ? "windows" : "posix";
    // Without a home doctor exits before any plan (SPEC §1 r3); the check keeps the types honest.
    if (home !== null) {
      for (const p of await hostCheckReads(input.env, cwd, searchFrom, home, os)) reads.add(p);
      const synced = await syncedInstallGrants(home, userHome, Deno.pid);
      for (const p of synced.reads) reads.add(p);
    }
    readWhy.push("the hosts' settings files, their commands and launchers on PATH, the chains --sync installs load");
  }
  if (needs.args === "tests") {
    // The test files and folders named; the JUnit report (written); --init's .mind/tests/ of the project.
    for (const f of positionals) await add(reads, absolute(f, cwd));
    const junit = text("junit");
    if (junit !== undefined) {
      for (const f of await bothForms(absolute(junit, cwd))) writes.add(f);
      writeWhy.push("the --junit report");
    }
    const root = await projectRootByStat(searchFrom, userHome);
    if (options.init && root !== null) {
      for (const f of await bothForms(join(root, ".mind", "tests"))) {
        reads.add(f);
        writes.add(f);
      }
      writeWhy.push("the project's .mind/tests/ (--init)");
    }
    readWhy.push("the test files named on the command line");
  }
  if (needs.throwaway && home !== null) {
    // The project's tree is copied (never written); hooks run in the copy, which is written and removed.
    const root = await projectRootByStat(searchFrom, userHome);
    if (root !== null) await add(reads, root);
    const realTemp = await real(facts.tempRoot);
    for (const t of new Set([facts.tempRoot, ...(realTemp ? [realTemp] : [])])) {
      const dir = throwawayDir(t);
      reads.add(dir);
      writes.add(dir);
    }
    readWhy.push("the project's tree and its throw-away copy (test --untrusted/--replay, review's replay)");
    writeWhy.push("the throw-away copy of the project (<temp>/mind-hooks-test-<pid>)");
  }
  if (needs.engine) {
    // The temp root may be a link (macOS /tmp), the spill root must not be (src/output/spill_folder.ts):
    // the grant is the spill root under the temp root's two forms, never where a planted link leads.
    const realTemp = await real(facts.tempRoot);
    for (const p of new Set([spillDir, ...(realTemp ? [join(realTemp, "hook_outputs")] : [])])) {
      reads.add(p);
      writes.add(p);
    }
    // The Stop guard's fallback counters (SPEC §6 r4), in this user's folder of the temp root.
    for (const p of new Set([userTempFolder(facts.tempRoot), ...(realTemp ? [userTempFolder(realTemp)] : [])])) {
      reads.add(p);
      writes.add(p);
    }
    readWhy.push("the spill folder, the Stop guard's fallback");
    writeWhy.push("the spill folder (<temp>/hook_outputs), the Stop guard's fallback (<temp>/mind-hooks-<uid>)");
    if (realTemp === null) {
      // A temp root that does not exist yet is created for the spill folder, as on the fast path
      // (src/output/spill_folder.ts); an existing one is never written, only its hook_outputs.
      writes.add(facts.tempRoot);
      writeWhy.push("the temp root, which does not exist yet (created for the spill folder)");
    }
    plan.sys = ["uid"];
    plan.why.sys = "uid only: a spill folder owned by another user is refused";
    const stdioServers = needs.mcp === "net-and-programs" ? input.mcp?.programs ?? [] : [];
    // `setsid` starts the hook shell in a session of its own without forking the engine
    // (src/runner/shell.ts): it and the shells are seen (stat) and run.
    const session = (input.os ?? Deno.build.os) === "windows" ? [] : [SETSID];
    for (const p of [...session, ...shells]) if (p.startsWith("/")) reads.add(p);
    const programs = [...shells, ...session, selfProgram(), ...stdioServers];
    plan.run = [...new Set(programs)];
    plan.why.run = "the hook shell, /bin/sh (process-group signals), setsid (the hook's session), this engine " +
      "(the async runner)" + (stdioServers.length ? ", configured stdio MCP commands" : "");
    if (input.mcp?.hosts.length) {
      plan.net = [...new Set(input.mcp.hosts)];
      plan.why.net = "the hosts of configured HTTP MCP servers";
    }
  }
  if (needs.readAnywhere !== undefined) {
    // prune asks whether each file the user's state names still exists, wherever; each serve request
    // names its own cwd: read stays unrestricted, write, run and net are narrowed.
    plan.read = true;
    plan.why.read = `unrestricted: ${needs.readAnywhere}`;
  } else {
    plan.read = [...reads];
    plan.why.read = readWhy.join(", ");
  }
  plan.write = [...writes];
  plan.why.write = writeWhy.join(", ");
  if (seen.size > 0) facts.pathFacts = pathFactsOf(seen);
  if (plan.run !== false && loaderVars.length > 0) {
    plan.run = true;
    plan.why.run = "unrestricted: " + loaderVars.join(", ") + " is set";
    plan.notes.push(
      `run is unrestricted because ${loaderVars.join(", ")} ${
        loaderVars.length > 1 ? "are" : "is"
      } set in the environment: Deno spawns a program with a loader variable only under an unrestricted run permission (a program allow-list means nothing once a library can be preloaded into it). Hooks keep the variable; read, write and net stay narrowed. Unset it to narrow run.`,
    );
  }
  return plan;
}

/** The Worker `deno.permissions` option for a plan. */
export function workerPermissions(plan: SandboxPlan): Deno.PermissionOptionsObject {
  return {
    read: plan.read,
    write: plan.write,
    run: plan.run,
    net: plan.net,
    env: plan.env,
    sys: plan.sys,
    ffi: plan.ffi,
    import: false,
  };
}
