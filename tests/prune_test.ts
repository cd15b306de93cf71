/**
 * `mind-hooks prune` (issue 16): the state of hook files and projects that no longer exist, and the
 * kept copies of their trusted definitions. A dry run by default (prints, writes nothing); `--yes`
 * removes exactly those tables, keeping the user's comments and every other entry. Through the
 * real CLI on real projects that are then deleted.
 */
import { assertEquals } from "./helpers/assert.ts";
import { cmd, group, makeHome, makeProject, runCli, trustProject, writeHooksJson } from "./helpers/cli.ts";
import { join } from "node:path";
import { keyFile } from "../src/cli/prune.ts";

Deno.test("prune: keyFile names the file of a key, and nothing for overrides or non-keys", () => {
  assertEquals(
    [
      keyFile("project:/r/.mind/hooks.json:PreToolUse:0:1"),
      keyFile("plugin:/h/plugins/p/plugin.json#2:Stop:0:0"),
      keyFile("user:C:\\Users\\a\\.mind\\hooks.json:Stop:1:0"),
      keyFile("cli:cli-override:Stop:0:0"),
      keyFile("nonsense"),
      keyFile("elsewhere:/x:Stop:0:0"),
      keyFile("user:relative/hooks.json:Stop:0:0"),
    ],
    ["/r/.mind/hooks.json", "/h/plugins/p/plugin.json", "C:\\Users\\a\\.mind\\hooks.json", null, null, null, null],
  );
});

Deno.test("prune: dry run by default; --yes removes the gone files' and projects' state, nothing else", async () => {
  await using home = await makeHome();
  const gone = await makeProject();
  await using kept = await makeProject();
  const goneFile = await writeHooksJson(gone.mindDir, { Stop: [group([cmd("echo gone")])] });
  await writeHooksJson(kept.mindDir, { Stop: [group([cmd("echo kept")])] });
  const userFile = await writeHooksJson(home.path, { Stop: [group([cmd("echo user")])] });
  for (const p of [gone.path, kept.path]) {
    await trustProject(home.path, p);
  }
  const config = join(home.path, "config.toml");
  await Deno.writeTextFile(config, `# my settings\n${await Deno.readTextFile(config)}`);
  const copies = () => [...Deno.readDirSync(join(home.path, "hooks", "trusted"))].length;
  assertEquals(copies(), 3);

  const nothing = await runCli(["prune", "--home", home.path]);
  assertEquals([nothing.code, nothing.stdout], [
    0,
    `nothing to prune: every hook file and project named in ${config} still exists\n`,
  ]);

  await gone.cleanup();
  const before = await Deno.readTextFile(config);
  const dry = await runCli(["prune", "--home", home.path]);
  const lines = [
    `from ${config}:`,
    `  [hooks.state."project:${goneFile}:Stop:0:0"]  ${goneFile} no longer exists`,
    `  [projects."${gone.path}"]  ${gone.path} no longer exists`,
    ` 1 kept trusted copy under ${join(home.path, "hooks", "trusted")}`,
  ];
  assertEquals([dry.code, dry.stderr, dry.stdout], [
    0,
    "",
    [
      `would remove 2 entries ${lines[0]}`,
      lines[1],
      lines[2],
      `would remove${lines[3]}`,
      "dry run: nothing written; mind-hooks prune --yes removes them",
      "",
    ].join("\n"),
  ]);
  assertEquals([await Deno.readTextFile(config), copies()], [before, 3], "a dry run writes nothing");

  const yes = await runCli(["prune", "--yes", "--home", home.path]);
  assertEquals([yes.code, yes.stdout], [
    0,
    [`removed 2 entries ${lines[0]}`, lines[1], lines[2], `removed${lines[3]}`, ""].join("\n"),
  ]);
  const after = await Deno.readTextFile(config);
  assertEquals(
    [after.startsWith("# my settings\n"), after.includes(gone.path), after.includes(kept.path), copies()],
    [true, false, true, 2],
  );
  // What is left still works: the kept project's and the user's hooks are trusted.
  const listed = (await runCli(["list", "--json", "--home", home.path, "--cwd", kept.path])).json();
  assertEquals(
    listed.hooks.map((h: { source: string; status: string }) => [h.source, h.status]),
    [[userFile, "trusted"], [join(kept.mindDir, "hooks.json"), "trusted"]],
  );
  assertEquals((await runCli(["prune", "--home", home.path])).stdout.startsWith("nothing to prune"), true);
});

Deno.test("prune: a config.toml that does not parse is refused, unchanged", async () => {
  await using home = await makeHome();
  const config = join(home.path, "config.toml");
  await Deno.writeTextFile(config, "[hooks\n");
  const r = await runCli(["prune", "--yes", "--home", home.path]);
  assertEquals([r.code, r.stdout, r.stderr, await Deno.readTextFile(config)], [
    1,
    "",
    `mind-hooks: ${config}: TOML does not parse: illegal character in key; nothing pruned\n`,
    "[hooks\n",
  ]);
});
