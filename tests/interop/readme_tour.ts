/**
 * The README's whole tour, every block as printed, ending with its agent: step 7 connects Claude Code
 * (`mind-hooks install claude`) and step 8 runs the real Claude Code (`claude -p … --allowedTools 'Bash(rm:*)'`)
 * against the loopback mock model, which asks for `rm -rf build`. Claude Code's own rules allow the call; the
 * tour's guard, reached through the launcher step 0 installed, denies it: `build` is still there, the model got
 * the reason, and the observation log has the blocked run. The home is fresh; only the npm and Deno caches are
 * the machine's, as for a user. Part of `deno task test:interop` (network isolated when `unshare -n` works).
 * @module
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { BIN, canIsolateNetwork, ensurePackages, hostEnv, makeRunDirs, PACKAGES, REPO, runDriver } from "./harness.ts";
import type { DriverSpec } from "./driver.ts";
import {
  onPath,
  shellBlocks,
  TOUR_BLOCKS,
  TOUR_HEADING,
  tourScript,
  tourStep,
  userCaches,
} from "../helpers/readme_tour.ts";

const skip = (await ensurePackages(["claude"])).claude ??
  (!await onPath("npx") || !await onPath("python3") ? "needs npx and python3 on PATH, as the README does" : null);
if (skip) console.log(`readme tour interop: skipped: ${skip}`);

const FINAL = "TOUR-FINAL-ANSWER";

Deno.test({
  name: "README tour, to the end: Claude Code, connected by mind-hooks install claude, is denied rm -rf by the guard",
  ignore: skip !== null,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const blocks = shellBlocks(await Deno.readTextFile(`${REPO}/README.md`), TOUR_HEADING);
    assertEquals(blocks.length, TOUR_BLOCKS);
    const caches = await userCaches();
    // Inside the loopback-only namespace nothing can be fetched: what the tour starts must be cached first, as it
    // is for a user who ran the set-up (npx's Deno, and the modules main.ts loads).
    for (
      const [cmd, args] of [["npx", ["-y", "deno@2.9.6", "--version"]], [Deno.execPath(), ["cache", `${REPO}/main.ts`]]]
    ) {
      const warm = await new Deno.Command(cmd as string, {
        args: args as string[],
        env: caches,
        stdout: "null",
        stderr: "piped",
      })
        .output();
      assert(warm.success, new TextDecoder().decode(warm.stderr));
    }

    const dirs = await makeRunDirs("claude", "tour");
    const bin = `${dirs.root}/bin`;
    await Deno.mkdir(bin);
    await Deno.symlink(await Deno.realPath(BIN.claude), `${bin}/claude`);
    // Claude Code's offline settings (mock origin, no telemetry), but the user's own ~/.claude and ~/.mind, as the
    // README has them: no CLAUDE_CONFIG_DIR, no MIND_HOME.
    const { CLAUDE_CONFIG_DIR: _c, MIND_HOME: _m, ...claudeEnv } = hostEnv("claude", dirs);
    const spec: DriverSpec = {
      bin: "/bin/sh",
      args: ["-c", tourScript(blocks)],
      cwd: REPO,
      env: {
        ...claudeEnv,
        PATH: `${bin}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}`,
        ...caches,
        // npx finds Deno in its cache without asking the registry (there is no network in here).
        npm_config_prefer_offline: "true",
        MIND_REQUIREMENTS: `${dirs.root}/no-requirements.toml`,
      },
      files: {},
      command: "rm -rf build",
      finalText: FINAL,
      report: `${dirs.root}/report.json`,
      timeoutMs: 240_000,
    };
    const r = await runDriver(spec, dirs.root);
    const describe = `exit ${r.code}, ${r.requests.length} model requests, network ${
      await canIsolateNetwork() ? "isolated" : "NOT isolated"
    }, ${PACKAGES.claude}\n--- stdout\n${r.stdout.slice(-4000)}\n--- stderr\n${r.stderr.slice(-4000)}`;
    assertEquals(r.code, 0, describe);

    const agent = tourStep(r.stdout, 8);
    assert(agent.includes(FINAL), `Claude Code's answer is missing\n${describe}`);
    assert(agent.trimEnd().endsWith("\nbuild"), `ls -d build: ${agent}`);
    await Deno.stat(`${dirs.home}/my-repo/build`); // still there
    // The model asked for the call and got the guard's reason back as its result.
    const model = r.requests.filter((q) => q.path.endsWith("/messages")).map((q) => JSON.stringify(q.body));
    assert(model.some((b) => b.includes('"tool_use"') && b.includes("rm -rf build")), describe);
    assert(model.some((b) => b.includes("rm -rf is not allowed")), `the model never got the reason\n${describe}`);
    // The observation log has the run, under Claude Code's session, not the tour's s1.
    const logged = (await Deno.readTextFile(`${dirs.home}/.mind/logs/hooks.jsonl`)).trim().split("\n").map((l) =>
      JSON.parse(l)
    );
    const viaClaude = logged.filter((e) => e.kind === "run" && e.session_id !== "s1");
    assertEquals(
      viaClaude.map((e) => [e.event, e.status, e.key]),
      [["PreToolUse", "blocked", `project:${dirs.home}/my-repo/.mind/hooks.json:PreToolUse:0:0`]],
      describe,
    );
  },
});
