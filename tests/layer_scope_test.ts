/**
 * What a stranger's layer can switch (SPEC §2.4), end to end through the real CLI: a standalone
 * `hooks.json` has no `features` (nor anything else beyond `hooks` and `description`); a project's
 * `[features] hooks = false` turns off its own hooks only (`W_FEATURE_SCOPED`), and its
 * `hooks = true` never turns back on what the user, a profile, `-c` or the managed layer turned off.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import {
  cmd,
  dispatch,
  event,
  group,
  makeHome,
  makeProject,
  trustAll,
  trustProject,
  writeConfigToml,
  writeHooksJson,
} from "./helpers/cli.ts";
import { join } from "node:path";

const USER_HOOK = `[[hooks.UserPromptSubmit]]\nhooks = [ { type = "command", command = "true" } ]\n`;
const PROJECT_HOOK = USER_HOOK;

/** A home with one user hook and a trusted project with one project hook (both trusted). */
async function setup(userExtra: string, projectToml: string | null) {
  const home = await makeHome();
  const proj = await makeProject();
  await writeConfigToml(home.path, USER_HOOK + userExtra);
  if (projectToml !== null) await writeConfigToml(proj.mindDir, projectToml);
  await trustProject(home.path, proj.path);
  return {
    home,
    proj,
    run: (args: string[] = []) => dispatch(home.path, event("UserPromptSubmit", { cwd: proj.path }), args),
    [Symbol.asyncDispose]: async () => {
      await home.cleanup();
      await proj.cleanup();
    },
  };
}

const layers = (r: { runs: { layer: string; status: string }[] }) => r.runs.map((x) => `${x.layer}:${x.status}`);

Deno.test("features: a project's [features] hooks = false turns off its own hooks only", async () => {
  await using s = await setup("", PROJECT_HOOK + `[features]\nhooks = false\n`);
  const r = await s.run();
  assertEquals(layers(r), ["user:completed"]);
  assert(r.warnings.some((w) => w.code === "W_FEATURE_SCOPED"), JSON.stringify(r.warnings));
  // The deprecated alias is scoped the same way.
  await writeConfigToml(s.proj.mindDir, PROJECT_HOOK + `[features]\ncodex_hooks = false\n`);
  assertEquals(layers(await s.run()), ["user:completed"]);
});

Deno.test("features: a project's hooks = true never turns on what a user-side layer turned off", async () => {
  await using s = await setup(`[features]\nhooks = false\n`, PROJECT_HOOK + `[features]\nhooks = true\n`);
  const off = await s.run();
  assertEquals(layers(off), []);
  assert(off.warnings.some((w) => w.code === "W_FEATURE_SCOPED"), JSON.stringify(off.warnings));
  // The same against -c, with the user's own switch on.
  await writeConfigToml(
    s.home.path,
    (await Deno.readTextFile(join(s.home.path, "config.toml"))).replace(
      "hooks = false",
      "hooks = true",
    ),
  );
  assertEquals(layers(await s.run()), ["user:completed", "project:completed"]);
  assertEquals(layers(await s.run(["-c", "features.hooks=false"])), []);
});

Deno.test("features: a hooks.json root `features` has no effect (project, user and profile)", async () => {
  await using s = await setup("", PROJECT_HOOK);
  await Deno.writeTextFile(
    join(s.proj.mindDir, "hooks.json"),
    JSON.stringify({ features: { hooks: false }, hooks: {} }),
  );
  const r = await s.run();
  assertEquals(layers(r), ["user:completed", "project:completed"]);
  assert(
    r.warnings.some((w) => w.code === "W_UNKNOWN_FIELD" && w.message.includes('"features"')),
    JSON.stringify(r.warnings),
  );
  await Deno.writeTextFile(join(s.home.path, "hooks.json"), JSON.stringify({ features: { hooks: false } }));
  assertEquals(layers(await s.run()), ["user:completed", "project:completed"]);
  await writeHooksJson(join(s.home.path, "profiles", "p"), {});
  await Deno.writeTextFile(
    join(s.home.path, "profiles", "p", "hooks.json"),
    JSON.stringify({ features: { hooks: false } }),
  );
  assertEquals(layers(await s.run(["--profile", "p"])), ["user:completed", "project:completed"]);
  // A user-side config.toml still switches everything off.
  await writeConfigToml(join(s.home.path, "profiles", "p"), `[features]\nhooks = false\n`);
  assertEquals(layers(await s.run(["--profile", "p"])), []);
});

Deno.test("features: a plugin manifest cannot switch hooks off either", async () => {
  await using home = await makeHome();
  const root = join(home.path, "plugins", "quiet");
  await Deno.mkdir(join(root, ".mind-plugin"), { recursive: true });
  await Deno.writeTextFile(
    join(root, ".mind-plugin", "plugin.json"),
    JSON.stringify({ features: { hooks: false }, hooks: { UserPromptSubmit: [group([cmd("true")])] } }),
  );
  await writeConfigToml(home.path, USER_HOOK + `[plugins.quiet]\nenabled = true\n`);
  await trustAll(home.path);
  const r = await dispatch(home.path, event("UserPromptSubmit"));
  assertEquals(layers(r), ["user:completed", "plugin:completed"]);
});

Deno.test("features: a -c key path through __proto__ sets a key, never Object.prototype", async () => {
  await using home = await makeHome();
  await writeConfigToml(home.path, USER_HOOK);
  await trustAll(home.path);
  const r = await dispatch(home.path, event("UserPromptSubmit"), ["-c", "__proto__.features={hooks=false}"]);
  assertEquals(layers(r), ["user:completed"]);
});
