/**
 * Borrowed trust through symlinks (SPEC §3.6, §2.6), end to end through the real CLI: a repository
 * whose `.mind` — or a file in it — links into another, trusted project must not run that project's
 * trusted hooks (`W_OUTSIDE_ROOT`), `project trust` refuses such a folder, and a plugin whose
 * `.mind-plugin`, manifest or hooks file links outside its own root is skipped the same way. Links
 * that stay inside the root, and a cwd reached through a symlink, keep working (keys use real paths).
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import {
  cmd,
  dispatch,
  event,
  group,
  makeHome,
  makeProject,
  runCli,
  type TempDir,
  trustAll,
  writeConfigToml,
  writeHooksJson,
} from "./helpers/cli.ts";
import { join } from "node:path";

const HOOKS = { UserPromptSubmit: [group([cmd("echo trusted-elsewhere")])] };

async function trustProject(home: string, dir: string): Promise<void> {
  const r = await runCli(["project", "trust", dir, "--home", home]);
  assertEquals(r.code, 0, r.stderr);
}

/** A home with a trusted project A whose hooks are all trusted. */
async function trustedProjectA(home: TempDir, form: "json" | "toml" = "json") {
  const a = await makeProject();
  if (form === "json") await writeHooksJson(a.mindDir, HOOKS);
  else {
    await writeConfigToml(
      a.mindDir,
      `[[hooks.UserPromptSubmit]]\nhooks = [ { type = "command", command = "true" } ]\n`,
    );
  }
  await trustProject(home.path, a.path);
  await trustAll(home.path, a.path);
  const r = await dispatch(home.path, event("UserPromptSubmit", { cwd: a.path }));
  assertEquals(r.runs.map((x) => x.status), ["completed"]);
  return a;
}

const codes = (r: { warnings: { code: string }[] }) => r.warnings.map((w) => w.code);

Deno.test("borrowed trust: a repo whose .mind links into a trusted project runs none of its hooks", async () => {
  await using home = await makeHome();
  await using a = await trustedProjectA(home);
  await using b = await makeProject();
  await Deno.remove(b.mindDir);
  await Deno.symlink(a.mindDir, b.mindDir);
  // Untrusted, B gets no advice to trust it: its .mind holds none of its own hooks.
  const before = await dispatch(home.path, event("UserPromptSubmit", { cwd: b.path }));
  assertEquals([before.runs, before.systemMessages], [[], []]);
  assert(codes(before).includes("W_OUTSIDE_ROOT"), JSON.stringify(before.warnings));
  // Trusting B directly is refused (one line, exit 1)...
  const refused = await runCli(["project", "trust", b.path, "--home", home.path]);
  assertEquals(refused.code, 1);
  assertEquals(refused.stderr.trim().split("\n").length, 1, refused.stderr);
  assert(/W_OUTSIDE_ROOT|outside/.test(refused.stderr), refused.stderr);
  // ...and even a B trusted by hand does not borrow A's trust.
  await Deno.writeTextFile(
    join(home.path, "config.toml"),
    `\n[projects.${JSON.stringify(b.path)}]\ntrust_level = "trusted"\n`,
    { append: true },
  );
  const r = await dispatch(home.path, event("UserPromptSubmit", { cwd: b.path }));
  assertEquals(r.runs, []);
  assert(codes(r).includes("W_OUTSIDE_ROOT"), JSON.stringify(r.warnings));
});

for (const [name, form] of [["hooks.json", "json"], ["config.toml", "toml"]] as const) {
  Deno.test(`borrowed trust: a .mind/${name} that links into a trusted project is skipped`, async () => {
    await using home = await makeHome();
    await using a = await trustedProjectA(home, form);
    await using b = await makeProject();
    await Deno.symlink(join(a.mindDir, name), join(b.mindDir, name));
    await trustProject(home.path, b.path);
    const r = await dispatch(home.path, event("UserPromptSubmit", { cwd: b.path }));
    assertEquals(r.runs, []);
    assert(codes(r).includes("W_OUTSIDE_ROOT"), JSON.stringify(r.warnings));
  });
}

Deno.test("borrowed trust: links inside the repo, and a cwd reached through a symlink, still work", async () => {
  await using home = await makeHome();
  await using b = await makeProject();
  await writeHooksJson(join(b.path, "shared"), HOOKS);
  await Deno.symlink(join(b.path, "shared", "hooks.json"), join(b.mindDir, "hooks.json"));
  const link = `${b.path}-link`;
  await Deno.symlink(b.path, link);
  try {
    await trustProject(home.path, link);
    await trustAll(home.path, link);
    const r = await dispatch(home.path, event("UserPromptSubmit", { cwd: link }));
    assertEquals(r.runs.map((x) => [x.key, x.status]), [[
      `project:${b.path}/shared/hooks.json:UserPromptSubmit:0:0`,
      "completed",
    ]]);
    assert(!codes(r).includes("W_OUTSIDE_ROOT"));
  } finally {
    await Deno.remove(link);
  }
});

/** A home with plugin `p1` (an inline manifest hooks entry and a hooks file), enabled and trusted. */
async function trustedPlugin(home: TempDir): Promise<string> {
  const p1 = join(home.path, "plugins", "p1");
  await Deno.mkdir(join(p1, ".mind-plugin"), { recursive: true });
  await Deno.writeTextFile(
    join(p1, ".mind-plugin", "plugin.json"),
    JSON.stringify({ hooks: [HOOKS, "./hooks/hooks.json"] }),
  );
  await writeHooksJson(join(p1, "hooks"), HOOKS);
  await writeConfigToml(home.path, `[plugins.p1]\nenabled = true\n[plugins.p2]\nenabled = true\n`);
  await trustAll(home.path);
  return p1;
}

for (
  const [what, plant] of [
    [
      ".mind-plugin folder",
      (p1: string, p2: string) => Deno.symlink(join(p1, ".mind-plugin"), join(p2, ".mind-plugin")),
    ],
    ["manifest file", async (p1: string, p2: string) => {
      await Deno.mkdir(join(p2, ".mind-plugin"), { recursive: true });
      await Deno.symlink(join(p1, ".mind-plugin", "plugin.json"), join(p2, ".mind-plugin", "plugin.json"));
    }],
    ["manifest's hooks file", async (p1: string, p2: string) => {
      await Deno.mkdir(join(p2, ".mind-plugin"), { recursive: true });
      await Deno.writeTextFile(join(p2, ".mind-plugin", "plugin.json"), JSON.stringify({ hooks: "./h.json" }));
      await Deno.symlink(join(p1, "hooks", "hooks.json"), join(p2, "h.json"));
    }],
  ] as const
) {
  Deno.test(`borrowed trust: a plugin whose ${what} links into another plugin is skipped`, async () => {
    await using home = await makeHome();
    const p1 = await trustedPlugin(home);
    const p2 = join(home.path, "plugins", "p2");
    await Deno.mkdir(p2, { recursive: true });
    await plant(p1, p2);
    const r = await dispatch(home.path, event("UserPromptSubmit"));
    // Only p1's own hook runs; p2 borrowed nothing.
    assertEquals(r.runs.map((x) => [x.key.includes("/p1/"), x.status]), [[true, "completed"], [true, "completed"]]);
    assert(codes(r).includes("W_OUTSIDE_ROOT"), JSON.stringify(r.warnings));
  });
}

Deno.test("borrowed trust: a hard link is a file of its own — its key names this repo, so it is untrusted", async () => {
  await using home = await makeHome();
  await using a = await trustedProjectA(home);
  await using b = await makeProject();
  await Deno.link(join(a.mindDir, "hooks.json"), join(b.mindDir, "hooks.json"));
  await trustProject(home.path, b.path);
  const r = await dispatch(home.path, event("UserPromptSubmit", { cwd: b.path }));
  assertEquals(r.runs.map((x) => [x.key, x.status]), [[
    `project:${b.mindDir}/hooks.json:UserPromptSubmit:0:0`,
    "skipped",
  ]]);
});

Deno.test("borrowed trust: two enabled plugins that are one folder load once", async () => {
  await using home = await makeHome();
  const p1 = await trustedPlugin(home);
  await Deno.symlink(p1, join(home.path, "plugins", "p2"));
  const r = await dispatch(home.path, event("UserPromptSubmit"));
  assertEquals(r.runs.map((x) => x.status), ["completed", "completed"]);
  assert(
    r.warnings.some((w) => w.code === "W_PLUGIN" && w.message.includes("same folder")),
    JSON.stringify(r.warnings),
  );
});
