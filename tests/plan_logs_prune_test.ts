/**
 * The sandbox plans of `logs` and `prune` (issue 16; SECURITY.md "Permissions per command"): `logs`
 * reads the observation log folder and nothing else, writes nothing, runs nothing; `prune` reads
 * anywhere (it checks that the files and projects named in the user's state still exist) but writes
 * only the home. Both through a real run too: the sandbox refuses what the plan leaves out.
 */
import { assertEquals } from "./helpers/assert.ts";
import { buildPlan } from "../src/sandbox/plan.ts";
import { COMMANDS, parseCommandLine } from "../src/cli/commands.ts";
import { makeHome, runCli } from "./helpers/cli.ts";

Deno.test("plan: logs reads the log folder only; prune reads anywhere, writes the home only", async () => {
  const logs = await buildPlan({
    command: "logs",
    needs: COMMANDS.get("logs")!.sandbox,
    args: parseCommandLine("logs", ["--home", "/h", "--follow"]),
    env: {},
    processCwd: "/",
  });
  assertEquals([logs.read, logs.write, logs.run, logs.net, logs.sys], [["/h/logs"], false, false, false, false]);
  const prune = await buildPlan({
    command: "prune",
    needs: COMMANDS.get("prune")!.sandbox,
    args: parseCommandLine("prune", ["--home", "/h", "--yes"]),
    env: {},
    processCwd: "/",
  });
  assertEquals([prune.read, prune.write, prune.run, prune.net], [true, ["/h"], false, false]);
});

Deno.test("sandbox: logs runs with its plan (a symlinked log file leading out of the home is refused)", async () => {
  await using home = await makeHome();
  await using outside = await makeHome();
  await Deno.writeTextFile(`${outside.path}/secret.jsonl`, '{"timestamp":"t","kind":"run","key":"k","status":"x"}\n');
  await Deno.mkdir(`${home.path}/logs`);
  await Deno.symlink(`${outside.path}/secret.jsonl`, `${home.path}/logs/hooks.jsonl`);
  const r = await runCli(["logs", "--home", home.path]);
  // The link's target is outside the grant: Deno refuses the read, nothing of it is printed, one line says why.
  assertEquals([r.code, r.stdout, r.stderr], [
    1,
    "",
    `mind-hooks: a log file in ${home.path}/logs leads outside it (a symlink); logs reads that folder only\n`,
  ]);
});
