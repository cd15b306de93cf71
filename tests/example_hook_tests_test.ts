/**
 * The project's example hooks ship with their tests (SPEC §16, issue 35 item 6), and `deno task test` runs them with
 * `mind-hooks test`: the bundled demo's guard (fixtures/demo/, tests in fixtures/demo/tests/) and the README tour's
 * guard, made by running the README's own step-1 block (tests in fixtures/readme_tour/tests/). The example guard of
 * the command's own tests (fixtures/testing/) runs in tests/test_command_test.ts.
 */
import { assertEquals, assertStringIncludes } from "./helpers/assert.ts";
import { makeHome, makeProject, REPO, runCli, trustAll } from "./helpers/cli.ts";
import { onPath, shellBlocks, TOUR_HEADING } from "./helpers/readme_tour.ts";
import { join } from "node:path";

/** Trusts the project at `root` and its hooks, copies `tests` into its `.mind/tests/`, runs `mind-hooks test`. */
async function runExampleTests(home: string, root: string, tests: string) {
  const trusted = await runCli(["project", "trust", "--home", home], { cwd: root });
  assertEquals(trusted.code, 0, trusted.stderr);
  await trustAll(home, root);
  await Deno.mkdir(join(root, ".mind", "tests"), { recursive: true });
  for await (const e of Deno.readDir(tests)) {
    await Deno.copyFile(join(tests, e.name), join(root, ".mind", "tests", e.name));
  }
  return await runCli(["test", "--home", home], { cwd: root });
}

Deno.test("example hooks: the demo's guard passes its tests (fixtures/demo/tests/)", async () => {
  await using home = await makeHome();
  await using project = await makeProject();
  for (const f of ["hooks.json", "deny_rm_rf.sh"]) {
    await Deno.copyFile(join(REPO, "fixtures", "demo", f), join(project.mindDir, f));
  }
  const res = await runExampleTests(home.path, project.path, join(REPO, "fixtures", "demo", "tests"));
  assertEquals(res.code, 0, res.stdout + res.stderr);
  assertStringIncludes(res.stdout, "4 passed, 0 failed");
});

Deno.test({
  name:
    "example hooks: the README tour's guard, made by the README's step 1, passes its tests (fixtures/readme_tour/tests/)",
  ignore: Deno.build.os === "windows",
  async fn() {
    if (!await onPath("python3")) {
      console.log("README guard tests: skipped (the tour's guard needs python3 on PATH, as the README does)");
      return;
    }
    await using home = await makeHome();
    await using user = await makeHome();
    const step1 = shellBlocks(await Deno.readTextFile(join(REPO, "README.md")), TOUR_HEADING)[1];
    const made = await new Deno.Command("sh", { args: ["-c", `set -e\n${step1}`], env: { HOME: user.path } }).output();
    assertEquals(made.code, 0, new TextDecoder().decode(made.stderr));
    const repo = join(user.path, "my-repo");
    const res = await runExampleTests(home.path, repo, join(REPO, "fixtures", "readme_tour", "tests"));
    assertEquals(res.code, 0, res.stdout + res.stderr);
    assertStringIncludes(res.stdout, "4 passed, 0 failed");
  },
});
