/**
 * `mind-hooks test --junit FILE` (SPEC §16): the run as JUnit XML, the report CI systems read — one
 * `<testsuite>` per test file, one `<testcase>` per case, a `<failure>` per failed case (its unmet
 * expectations) and an `<error>` per case that could not run. Pure.
 * @module
 */
import type { CaseOutcome } from "./run_cases.ts";

/** `text` escaped for XML character data and attribute values (and stripped of what XML 1.0 cannot hold). */
export function xmlEscape(text: string): string {
  return text
    // deno-lint-ignore no-control-regex
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "\uFFFD")
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&apos;");
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);

/** The JUnit XML document of a run's outcomes, grouped by file in the order they ran. */
export function junitXml(outcomes: readonly CaseOutcome[]): string {
  const files = [...new Set(outcomes.map((o) => o.file))];
  const count = (os: readonly CaseOutcome[]) => ({
    tests: os.length,
    failures: os.filter((o) => o.error === null && o.failures.length > 0).length,
    errors: os.filter((o) => o.error !== null).length,
    time: seconds(os.reduce((t, o) => t + o.ms, 0)),
  });
  const attrs = (c: ReturnType<typeof count>) =>
    `tests="${c.tests}" failures="${c.failures}" errors="${c.errors}" time="${c.time}"`;
  const lines = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="mind-hooks test" ${attrs(count(outcomes))}>`,
  ];
  for (const file of files) {
    const os = outcomes.filter((o) => o.file === file);
    lines.push(`  <testsuite name="${xmlEscape(file)}" ${attrs(count(os))}>`);
    for (const o of os) {
      const head = `    <testcase name="${xmlEscape(o.name)}" classname="${xmlEscape(file)}" time="${seconds(o.ms)}"`;
      if (o.error !== null) {
        lines.push(`${head}>`, `      <error message="${xmlEscape(o.error)}">${xmlEscape(o.error)}</error>`);
        lines.push(`    </testcase>`);
      } else if (o.failures.length > 0) {
        const text = o.failures.join("; ");
        lines.push(
          `${head}>`,
          `      <failure message="${xmlEscape(text)}">${xmlEscape(o.failures.join("\n"))}</failure>`,
        );
        lines.push(`    </testcase>`);
      } else lines.push(`${head}/>`);
    }
    lines.push(`  </testsuite>`);
  }
  lines.push(`</testsuites>`);
  return lines.join("\n") + "\n";
}
