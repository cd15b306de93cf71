/**
 * Trust bypass attempts (SPEC §3, §15 "Reliability"), end to end: trust state written in the project
 * and profile layers, a forged key pointing at another file, a trusted hash copied from another hook,
 * Unicode look-alike event names, a reordered file, and a symlinked hooks.json swapped after trust.
 * In none of them does an untrusted (or modified) hook run: each hostile hook would leave a marker
 * file, and the marker must not exist.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import {
  cmd,
  dispatch,
  type DispatchResult,
  event,
  group,
  makeHome,
  makeProject,
  runCli,
  shq,
  trustAll,
  writeHooksJson,
} from "./helpers/cli.ts";
import { join } from "node:path";

/** A command that records that it ran by creating `marker`, and prints `label`. */
function marking(marker: string, label: string): string {
  return `cat >/dev/null; touch ${shq(marker)}; echo ${shq(label)}`;
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

type Hooks = Awaited<ReturnType<typeof list>>;

/** `list --json` hooks of a home (project searched from `cwd`). */
async function list(home: string, cwd: string) {
  const res = await runCli(["list", "--json", "--home", home, "--cwd", cwd]);
  assertEquals(res.code, 0, res.stderr);
  return res.json().hooks as { key: string; hash: string; status: string; command: string }[];
}

/** The statuses of the runs of a result, by key. */
function statuses(res: DispatchResult): Record<string, string> {
  return Object.fromEntries(res.runs.map((r) => [r.key, `${r.status}${r.reason ? ":" + r.reason : ""}`]));
}

async function trustProject(home: string, dir: string): Promise<void> {
  const res = await runCli(["project", "trust", dir, "--home", home]);
  assertEquals(res.code, 0, res.stderr);
}

Deno.test("bypass: trust state in the project and profile layers is ignored", async () => {
  await using home = await makeHome();
  await using proj = await makeProject();
  const marker = join(proj.path, "ran");
  await writeHooksJson(proj.mindDir, { UserPromptSubmit: [group([cmd(marking(marker, "project hook"))])] });
  await trustProject(home.path, proj.path);
  // Learn the key and the hash the hook would need, as an attacker could compute them.
  const [hook] = await list(home.path, proj.path) as Hooks;
  assertEquals(hook.status, "untrusted");
  const state = `[hooks.state.${JSON.stringify(hook.key)}]\ntrusted_hash = ${
    JSON.stringify(hook.hash)
  }\nenabled = true\n`;
  await Deno.writeTextFile(join(proj.mindDir, "config.toml"), state);
  await Deno.mkdir(join(home.path, "profiles", "work"), { recursive: true });
  await Deno.writeTextFile(join(home.path, "profiles", "work", "config.toml"), state);
  const res = await dispatch(home.path, event("UserPromptSubmit", { cwd: proj.path }), ["--profile", "work"]);
  assertEquals(statuses(res), { [hook.key]: "skipped:untrusted" });
  assertEquals(res.warnings.filter((w) => w.code === "W_STATE_NOT_AUTHORITATIVE").length, 2);
  assert(!(await exists(marker)), "the untrusted hook ran");
});

Deno.test("bypass: a project cannot trust itself, nor can a profile trust a project", async () => {
  await using home = await makeHome();
  await using proj = await makeProject();
  const marker = join(proj.path, "ran");
  await writeHooksJson(proj.mindDir, { UserPromptSubmit: [group([cmd(marking(marker, "x"))])] });
  const selfTrust = `[projects.${JSON.stringify(proj.path)}]\ntrust_level = "trusted"\n`;
  await Deno.writeTextFile(join(proj.mindDir, "config.toml"), selfTrust);
  await Deno.mkdir(join(home.path, "profiles", "p"), { recursive: true });
  await Deno.writeTextFile(join(home.path, "profiles", "p", "config.toml"), selfTrust);
  const res = await dispatch(home.path, event("UserPromptSubmit", { cwd: proj.path }), ["--profile", "p"], {});
  assertEquals(res.runs, []);
  assert(res.warnings.some((w) => w.code === "W_PROJECT_UNTRUSTED"));
  assert(!(await exists(marker)));
});

Deno.test("bypass: a forged key in a project's state cannot trust or re-enable another file's hook", async () => {
  await using home = await makeHome();
  await using proj = await makeProject();
  const marker = join(proj.path, "ran");
  // The user's own layer holds a hook the user never trusted.
  await writeHooksJson(home.path, { UserPromptSubmit: [group([cmd(marking(marker, "user hook"))])] });
  await writeHooksJson(proj.mindDir, { Stop: [group([cmd("true")])] });
  await trustProject(home.path, proj.path);
  const userHook = (await list(home.path, proj.path) as Hooks).find((h) => h.key.startsWith("user:"))!;
  // The project (trusted as a layer) writes state for a key that points at the user's file.
  await Deno.writeTextFile(
    join(proj.mindDir, "config.toml"),
    `[hooks.state.${JSON.stringify(userHook.key)}]\ntrusted_hash = ${JSON.stringify(userHook.hash)}\n`,
  );
  const res = await dispatch(home.path, event("UserPromptSubmit", { cwd: proj.path }));
  assertEquals(statuses(res), { [userHook.key]: "skipped:untrusted" });
  assert(!(await exists(marker)));
});

Deno.test("bypass: a trusted hash copied from another hook does not trust it", async () => {
  await using home = await makeHome();
  await using proj = await makeProject();
  const marker = join(proj.path, "ran");
  await writeHooksJson(proj.mindDir, {
    UserPromptSubmit: [group([cmd("cat >/dev/null; echo safe"), cmd(marking(marker, "evil"))])],
  });
  await trustProject(home.path, proj.path);
  const hooks = await list(home.path, proj.path) as Hooks;
  const [safe, evil] = hooks;
  // The safe hook's hash, stored under the evil hook's key (as a confused installer might).
  const state = [safe, evil].map((h) =>
    `[hooks.state.${JSON.stringify(h.key)}]\ntrusted_hash = ${JSON.stringify(safe.hash)}\n`
  )
    .join("\n");
  await Deno.writeTextFile(
    join(home.path, "config.toml"),
    await Deno.readTextFile(join(home.path, "config.toml")) + "\n" + state,
  );
  // And the same content as a trusted hook, in another file: trust is per key, not per content.
  await using other = await makeProject();
  await writeHooksJson(other.mindDir, { UserPromptSubmit: [group([cmd("cat >/dev/null; echo safe")])] });
  await trustProject(home.path, other.path);
  const res = await dispatch(home.path, event("UserPromptSubmit", { cwd: proj.path }));
  assertEquals(statuses(res), { [safe.key]: "completed", [evil.key]: "skipped:modified" });
  assert(!(await exists(marker)));
  const res2 = await dispatch(home.path, event("UserPromptSubmit", { cwd: other.path }));
  assertEquals(res2.runs.map((r) => `${r.status}:${r.reason}`), ["skipped:untrusted"]);
});

Deno.test("bypass: Unicode look-alike event names never run as the real event", async () => {
  await using home = await makeHome();
  await using proj = await makeProject();
  const marker = join(proj.path, "ran");
  const lookalikes = [
    "Pre\u0422oolUse", // Cyrillic capital Te
    "PreToolUs\u0435", // Cyrillic small ie
    "PreToolUse\u200b", // zero-width space
    "\uff30reToolUse", // fullwidth P
    "PreToolUse ", // trailing space
    "pretooluse",
  ];
  await writeHooksJson(
    proj.mindDir,
    Object.fromEntries(lookalikes.map((name) => [name, [group([cmd(marking(marker, name))])]])),
  );
  await trustProject(home.path, proj.path);
  await trustAll(home.path, proj.path);
  const res = await dispatch(home.path, event("PreToolUse", { cwd: proj.path }), ["--dangerously-bypass-hook-trust"]);
  assertEquals(res.runs, []);
  assertEquals(res.warnings.filter((w) => w.code === "W_UNKNOWN_EVENT").length, lookalikes.length);
  assert(!(await exists(marker)));
});

Deno.test("bypass: reordering a trusted file makes every moved hook modified or untrusted", async () => {
  await using home = await makeHome();
  await using proj = await makeProject();
  const marker = join(proj.path, "ran");
  const safe = cmd("cat >/dev/null; echo safe");
  await writeHooksJson(proj.mindDir, { UserPromptSubmit: [group([safe])] });
  await trustProject(home.path, proj.path);
  await trustAll(home.path, proj.path);
  // The attacker slips a hook in front: the trusted key now names the new hook, the old one moves.
  await writeHooksJson(proj.mindDir, { UserPromptSubmit: [group([cmd(marking(marker, "evil")), safe])] });
  const res = await dispatch(home.path, event("UserPromptSubmit", { cwd: proj.path }));
  const key = (i: number) => `project:${join(proj.mindDir, "hooks.json")}:UserPromptSubmit:0:${i}`;
  assertEquals(statuses(res), { [key(0)]: "skipped:modified", [key(1)]: "skipped:untrusted" });
  assert(!(await exists(marker)));
  assertEquals(res.systemMessages.length, 1);
});

Deno.test("bypass: a symlinked hooks.json swapped after trust does not inherit the trust", async () => {
  await using home = await makeHome();
  await using proj = await makeProject();
  const marker = join(proj.path, "ran");
  const store = join(proj.path, "store");
  const good = await writeHooksJson(
    store,
    { UserPromptSubmit: [group([cmd("cat >/dev/null; echo good")])] },
    "good.json",
  );
  const evil = await writeHooksJson(store, { UserPromptSubmit: [group([cmd(marking(marker, "evil"))])] }, "evil.json");
  const link = join(proj.mindDir, "hooks.json");
  await Deno.symlink(good, link);
  await trustProject(home.path, proj.path);
  await trustAll(home.path, proj.path);
  const first = await dispatch(home.path, event("UserPromptSubmit", { cwd: proj.path }));
  assertEquals(first.additionalContext, ["good"]);
  // Swap the link to another file: its key is that file's real path, never trusted.
  await Deno.remove(link);
  await Deno.symlink(evil, link);
  const swapped = await dispatch(home.path, event("UserPromptSubmit", { cwd: proj.path }));
  assertEquals(statuses(swapped), { [`project:${evil}:UserPromptSubmit:0:0`]: "skipped:untrusted" });
  // Rewrite the trusted target in place: same key, new content, so the hash no longer matches.
  await Deno.remove(link);
  await Deno.symlink(good, link);
  await Deno.writeTextFile(good, JSON.stringify({ hooks: { UserPromptSubmit: [group([cmd(marking(marker, "x"))])] } }));
  const rewritten = await dispatch(home.path, event("UserPromptSubmit", { cwd: proj.path }));
  assertEquals(statuses(rewritten), { [`project:${good}:UserPromptSubmit:0:0`]: "skipped:modified" });
  assert(!(await exists(marker)));
});
