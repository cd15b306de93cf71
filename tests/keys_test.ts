/**
 * Hook keys on the command line (issue 16): any unique tail of a key selects its hook, an
 * ambiguous tail lists the keys it could mean and writes nothing, a key given twice counts once.
 * And `project trust` says what now loads (as review does), never "still needs review" for a
 * project whose hooks are trusted. Through the real CLI on user files and trusted projects.
 */
import { assertEquals } from "./helpers/assert.ts";
import { group, makeHome, makeProject, runCli, writeConfigToml, writeHooksJson } from "./helpers/cli.ts";

const hook = (command: string) => [group([{ type: "command", command }], "Bash")];

Deno.test("keys: a unique tail selects a hook; an ambiguous one lists the candidates; duplicates count once", async () => {
  await using home = await makeHome();
  await using project = await makeProject();
  const toml = await writeConfigToml(
    home.path,
    `[[hooks.Stop]]\nhooks = [{ type = "command", command = "echo stop" }]\n`,
  );
  const json = await writeHooksJson(home.path, { PreToolUse: hook("echo user") });
  const proj = await writeHooksJson(project.mindDir, { PreToolUse: hook("echo project") });
  const base = ["--home", home.path, "--cwd", project.path];
  assertEquals((await runCli(["project", "trust", ...base])).code, 0);
  const run = async (...args: string[]) => {
    const r = await runCli([...args, ...base]);
    return [r.code, r.stdout.split("\n").filter((l) => l !== ""), r.stderr.trim()];
  };
  const hashOf = async (key: string) =>
    (await runCli(["list", "--json", ...base])).json().hooks.find((h: { key: string }) => h.key === key).hash;
  const stopKey = `user:${toml}:Stop:0:0`;
  const userKey = `user:${json}:PreToolUse:0:0`;
  const projectKey = `project:${proj}:PreToolUse:0:0`;

  // Only one Stop hook: its tail is enough, and twice is once.
  assertEquals(await run("trust", "Stop:0:0", "Stop:0:0", stopKey), [
    0,
    [`trusted ${stopKey} ${await hashOf(stopKey)}`],
    "",
  ]);
  // Two PreToolUse hooks: the tail is ambiguous, nothing is written.
  const before = await Deno.readTextFile(toml);
  assertEquals(await run("trust", "PreToolUse:0:0"), [
    1,
    [],
    `mind-hooks: ambiguous: PreToolUse:0:0 could be any of ${userKey}, ${projectKey} (give more of the key); nothing written`,
  ]);
  assertEquals(await Deno.readTextFile(toml), before);
  // More of the key picks one: a file name, or the project's folder.
  assertEquals(await run("disable", ".mind/hooks.json:PreToolUse:0:0"), [0, [`disabled ${projectKey}`], ""]);
  assertEquals(await run("enable", `${json}:PreToolUse:0:0`, userKey), [0, [`enabled ${userKey}`], ""]);
  // A tail must start at a boundary of the key: "ToolUse:0:0" is no key's tail.
  assertEquals(await run("trust", "ToolUse:0:0", "nothing"), [
    1,
    [],
    "mind-hooks: unknown hook keys: ToolUse:0:0, nothing (see mind-hooks list); nothing written",
  ]);
});

Deno.test("project trust: what it says agrees with what now loads", async () => {
  await using home = await makeHome();
  await using project = await makeProject();
  const base = ["--home", home.path, "--cwd", project.path];
  const say = async (...args: string[]) => (await runCli([...args, ...base])).stdout.split("\n")[1];
  assertEquals(await say("project", "trust"), "none of its hooks is loaded (mind-hooks list shows why)");
  await writeHooksJson(project.mindDir, { Stop: [group([{ type: "command", command: "true" }])] });
  assertEquals(
    await say("project", "trust"),
    "1 of its hooks needs review: mind-hooks review (or mind-hooks trust KEY...)",
  );
  assertEquals((await runCli(["trust", "--all", ...base])).code, 0);
  assertEquals(await say("project", "trust"), "its hook is trusted already");
});
