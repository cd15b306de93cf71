/**
 * `serve` never answers with a half-applied configuration (SPEC §13: configuration is re-read when a
 * file changes, so a trust granted elsewhere applies to the next event). While other requests keep
 * loads in flight, the hooks.json and config.toml of the home are both rewritten — a new hook command
 * and the trust of exactly that command — 100 times by atomic replacement, 50 times in place; the
 * dispatch sent after each pair of writes must run the new hook (not skip it as `modified`, not run
 * the old one). Before the fix a request could join a load that had read the files before the write.
 */
import { join } from "node:path";
import { assertEquals } from "./helpers/assert.ts";
import { makeHome } from "./helpers/cli.ts";
import { ServeClient } from "./helpers/serve_client.ts";
import { loadCatalog } from "../src/config/discovery.ts";
import { hookHash } from "../src/trust/hash.ts";

const ATOMIC = 100;
const IN_PLACE = 50;

/** hooks.json holding one UserPromptSubmit hook that prints `v<n>`. */
function hooksJson(n: number): string {
  return JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: `echo v${n}` }] }] } });
}

/** The content hash of version `n`'s hook (a hash does not depend on where the file is). */
async function hashes(count: number): Promise<string[]> {
  await using scratch = await makeHome();
  const out: string[] = [];
  for (let n = 0; n < count; n++) {
    await Deno.writeTextFile(join(scratch.path, "hooks.json"), hooksJson(n));
    const loaded = await loadCatalog({ home: scratch.path, cwd: scratch.path, requirements: "/nonexistent/req.toml" });
    if (!loaded.ok) throw new Error(loaded.error);
    const catalog = loaded.value;
    out.push(hookHash(catalog.handlers[0]));
  }
  return out;
}

Deno.test({
  name: `serve: after ${ATOMIC} atomic replacements and ${IN_PLACE} in-place edits of hooks.json and config.toml, ` +
    "each next request runs the new trusted hook",
  ignore: Deno.build.os === "windows",
  async fn() {
    await using home = await makeHome();
    const hooksPath = join(home.path, "hooks.json");
    const configPath = join(home.path, "config.toml");
    const key = `user:${hooksPath}:UserPromptSubmit:0:0`;
    const trusted = await hashes(ATOMIC + IN_PLACE);
    const configToml = (n: number) => `[hooks.state.${JSON.stringify(key)}]\ntrusted_hash = "${trusted[n]}"\n`;
    const replace = async (path: string, text: string) => {
      await Deno.writeTextFile(`${path}.tmp`, text);
      await Deno.rename(`${path}.tmp`, path);
    };
    await replace(hooksPath, hooksJson(0));
    await replace(configPath, configToml(0));

    const server = await ServeClient.start([
      "--home",
      home.path,
      "--temp-dir",
      join(home.path, "tmp"),
    ], { killAfterMs: 300_000 });
    let turn = 0;
    const base = {
      session_id: "reload",
      transcript_path: null,
      cwd: home.path,
      model: "m",
      permission_mode: "default",
    };
    const dispatch = async () => {
      const params = { ...base, hook_event_name: "UserPromptSubmit", turn_id: `t${++turn}`, prompt: "p" };
      return (await server.request("dispatch", params)) as {
        result?: { additionalContext: string[]; runs: { status: string }[] };
      };
    };
    /** An event no hook matches: answered in well under a millisecond, it loads the same catalog. */
    const other = async () => {
      const tool = { tool_name: "exec_command", tool_use_id: `u${++turn}`, tool_input: { cmd: "ls" } };
      await server.request("dispatch", { ...base, hook_event_name: "PreToolUse", turn_id: `t${turn}`, ...tool });
    };
    // Other requests keep a load in flight whenever the files change.
    let writing = true;
    const noise = Array.from({ length: 4 }, async () => {
      while (writing) await other();
    });

    const stale: string[] = [];
    try {
      for (let n = 1; n < ATOMIC + IN_PLACE; n++) {
        // Between the two writes the others' loads read the half-applied pair (and keep loading, the
        // files being "racy"): the request sent right after the second write arrives during one.
        const write = n < ATOMIC ? replace : Deno.writeTextFile;
        await write(hooksPath, hooksJson(n));
        await new Promise((r) => setTimeout(r, 5));
        await write(configPath, configToml(n));
        const answer = await dispatch();
        const seen = `${answer?.result?.runs.map((r) => r.status)}:${answer?.result?.additionalContext}`;
        if (seen !== `completed:v${n}`) stale.push(`${n < ATOMIC ? "atomic" : "in place"} v${n}: ${seen}`);
      }
    } finally {
      writing = false;
      await Promise.all(noise);
      assertEquals((await server.close()).code, 0);
    }
    assertEquals(stale, [], "requests answered with the configuration of before the write");
  },
});
