/**
 * `deno task bench`: whole-process benchmarks of one-shot dispatch (SPEC §15),
 * measured with hyperfine (Debian package) against the running Deno binary.
 *
 * Cases: Deno's own hello-world start; dispatch with no matching hook; the
 * same with 1,000 configured handlers (discovery cost); dispatch with one
 * trivial matching hook; the same hook run bare with `$SHELL -lc`; 64
 * matching hooks that each sleep 0.2 s (concurrency: ≈0.2 s, not 12.8 s).
 * @module
 */
const repo = decodeURIComponent(new URL("../", import.meta.url).pathname);
const deno = Deno.execPath();
const run = `${deno} run -q -P --no-prompt --config ${repo}deno.json ${repo}main.ts`;
// Hooks run under `$SHELL -lc`; a login bash that sources a heavy profile (pyenv init here costs
// ~0.4 s per start) would measure the profile, not the engine. The benchmark pins SHELL=/bin/sh
// for every case, and reports the user's own login shell start separately.
const userShell = Deno.env.get("SHELL") ?? "/bin/sh";
Deno.env.set("SHELL", "/bin/sh");
const shell = "/bin/sh";

async function sh(cmd: string): Promise<string> {
  const out = await new Deno.Command("sh", { args: ["-c", cmd], stdout: "piped", stderr: "inherit" }).output();
  if (!out.success) throw new Error(`failed: ${cmd}`);
  return new TextDecoder().decode(out.stdout);
}

async function home(hooks: unknown): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "mind-bench-" });
  await Deno.writeTextFile(`${dir}/hooks.json`, JSON.stringify({ hooks }));
  await sh(`${run} trust --all --home ${dir} --cwd ${dir} >/dev/null`).catch(() => {});
  return dir;
}

const cwd = await Deno.makeTempDir({ prefix: "mind-bench-cwd-" });
const event = JSON.stringify({
  session_id: "bench",
  transcript_path: null,
  cwd,
  hook_event_name: "PreToolUse",
  model: "m",
  turn_id: "t",
  permission_mode: "default",
  tool_name: "exec_command",
  tool_use_id: "u",
  tool_input: { cmd: "ls" },
});
const eventFile = `${cwd}/event.json`;
await Deno.writeTextFile(eventFile, event);

const noMatch = await home({ PostToolUse: [{ matcher: "Edit", hooks: [{ type: "command", command: "true" }] }] });
const many = await home({
  PostToolUse: Array.from({ length: 100 }, (_, g) => ({
    matcher: `tool_${g}`,
    hooks: Array.from({ length: 10 }, (_, h) => ({ type: "command", command: `echo ${g}-${h}` })),
  })),
});
const one = await home({ PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "true" }] }] });
const sixtyFour = await home({
  PreToolUse: [{
    matcher: "Bash",
    hooks: Array.from({ length: 64 }, (_, i) => ({ type: "command", command: `sleep 0.2; echo ${i} >/dev/null` })),
  }],
});

const cases: [string, string][] = [
  ["deno hello-world start", `${deno} run -q -P --no-prompt --config ${repo}deno.json ${repo}bench/hello.ts`],
  ["dispatch, no matching hook", `${run} dispatch --home ${noMatch} < ${eventFile}`],
  ["dispatch, no match, 1,000 handlers configured", `${run} dispatch --home ${many} < ${eventFile}`],
  ["dispatch, one trivial matching hook", `${run} dispatch --home ${one} < ${eventFile}`],
  ["the same hook bare: $SHELL -lc true", `${shell} -lc true`],
  [`for reference: your login shell, ${userShell} -lc true`, `${userShell} -lc true`],
  ["dispatch, 64 matching hooks × sleep 0.2 s", `${run} dispatch --home ${sixtyFour} < ${eventFile}`],
];

const hasHyperfine =
  (await new Deno.Command("sh", { args: ["-c", "command -v hyperfine"], stdout: "null" }).output()).success;
if (!hasHyperfine) {
  console.error("bench: hyperfine is not installed (apt-get install hyperfine)");
  Deno.exit(1);
}
const json = `${cwd}/hyperfine.json`;
const runs = Deno.args.includes("--quick") ? 10 : 30;
await sh(
  `hyperfine -N --style none -w 3 -r ${runs} --export-json ${json} ` +
    cases.map(([name, cmd]) => `-n '${name}' '${cmd.includes("<") ? `sh -c "${cmd}"` : cmd}'`).join(" ") +
    " >/dev/null",
).catch(async () => {
  // -N cannot redirect stdin; fall back to hyperfine's default shell.
  await sh(
    `hyperfine --style none -w 3 -r ${runs} --export-json ${json} ` + cases.map(([name, cmd]) =>
      `-n '${name}' '${cmd}'`
    ).join(" ") + " >/dev/null",
  );
});
const results = JSON.parse(await Deno.readTextFile(json)).results as {
  command: string;
  mean: number;
  stddev: number;
  median: number;
}[];
const hello = results[0].median;
console.log(`| case | median | mean ± σ | × hello |`);
console.log(`| --- | ---: | ---: | ---: |`);
for (const r of results) {
  const ms = (s: number) => `${(s * 1000).toFixed(1)} ms`;
  console.log(
    `| ${r.command} | ${ms(r.median)} | ${ms(r.mean)} ± ${(r.stddev * 1000).toFixed(1)} | ${
      (r.median / hello).toFixed(2)
    } |`,
  );
}
for (const d of [noMatch, many, one, sixtyFour, cwd]) await Deno.remove(d, { recursive: true }).catch(() => {});
