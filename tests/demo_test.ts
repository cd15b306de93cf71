/**
 * `deno task demo`, as the README has a new user run it: its first line of its own says what it does and
 * what a first run on a machine waits for (Deno fetching the npm packages pinned in deno.lock, before any
 * task runs); then the two dispatches, nothing else on stderr than the task runner's own `Task` line.
 */
import { assert, assertEquals, assertStringIncludes } from "./helpers/assert.ts";
import { REPO } from "./helpers/cli.ts";
import { firstLine } from "../fixtures/demo/demo.ts";

Deno.test("demo: the first line says what it does and why a first run waits; then the deny and the allow", async () => {
  const lock = JSON.parse(await Deno.readTextFile(`${REPO}/deno.lock`));
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["task", "--config", `${REPO}/deno.json`, "demo"],
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stdout = new TextDecoder().decode(out.stdout);
  const stderr = new TextDecoder().decode(out.stderr);
  assertEquals(out.code, 0, stderr);
  const [first, ...rest] = stdout.split("\n");
  assertEquals(first, firstLine(JSON.stringify(lock)));
  assertStringIncludes(first, `Deno fetching the ${Object.keys(lock.npm).length} npm packages pinned in deno.lock`);
  assert(rest[0].startsWith("$ mind-hooks project trust "), rest[0]);
  const results = rest.join("\n").split(/^\$ .*mind-hooks dispatch$/m).slice(1).map((r) => JSON.parse(r));
  assertEquals(results.map((r) => r.decision), ["deny", null]);
  // The task runner names the task on stderr; the CLI runs quietly and says nothing there.
  assertEquals(stderr, "Task demo deno run -q -P --no-prompt fixtures/demo/demo.ts\n");
});
