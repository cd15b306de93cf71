#!/usr/bin/env node
// The `mind-hooks` command of the npm launcher package. npm installs exactly one of this package's optional
// dependencies, `<this package>-<platform>-<arch>` (its `os`/`cpu` fields rule out the others); this file
// finds that package's native binary and runs it with the same arguments, stdio and environment, and exits
// with its status. Its own failures exit 1, never 2: registered as a Claude Code hook, 2 would block the
// host's tool call.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);
const manifest = require("../package.json");
const platformPackage = `${manifest.name}-${process.platform}-${process.arch}`;
const exe = process.platform === "win32" ? "mind-hooks.exe" : "mind-hooks";

function fail(message) {
  console.error(`mind-hooks: ${message}`);
  process.exit(1);
}

let binary;
try {
  binary = join(dirname(require.resolve(`${platformPackage}/package.json`)), "bin", exe);
} catch {
  const supported = Object.keys(manifest.optionalDependencies ?? {});
  if (!supported.includes(platformPackage)) {
    fail(
      `no binary for ${process.platform}-${process.arch} (this package ships ${
        supported.map((p) => p.slice(manifest.name.length + 1)).join(", ")
      }); build from source: see ${manifest.homepage}`,
    );
  }
  fail(
    `${platformPackage} is not installed: npm skipped this optional dependency; reinstall without --omit=optional`,
  );
}

const child = spawn(binary, process.argv.slice(2), { stdio: "inherit", windowsHide: true });
// A host that times a hook out signals this process: pass it on so the engine can end its own hooks.
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => child.kill(signal));
}
child.on("error", (e) => fail(`cannot start ${binary}: ${e.message}`));
child.on("exit", (code, signal) => {
  if (signal) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code ?? 1);
});
