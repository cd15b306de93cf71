/**
 * The pure half of `mind-hooks logs` (src/cli/logs.ts): `--since` read as a time, the filters, and
 * the line shown for a record. The command on real dispatches: tests/logs_test.ts.
 */
import { assertEquals } from "../../tests/helpers/assert.ts";
import { formatRecord, parseSince, recordGroup, selects } from "./logs.ts";
import { localTime } from "../review/display.ts";
import type { LogRecord } from "../log/observation.ts";

Deno.test("logs: parseSince takes ISO-8601 times and durations back from now; nothing else", () => {
  const now = Date.parse("2026-01-02T12:00:00Z");
  const cases: [string, number | null][] = [
    ["10m", now - 600_000],
    ["2h", now - 7_200_000],
    ["1d", now - 86_400_000],
    ["30s", now - 30_000],
    ["1w", now - 604_800_000],
    ["2026-01-01", Date.parse("2026-01-01")],
    ["2026-01-01T10:00:00Z", Date.parse("2026-01-01T10:00:00Z")],
    ["2026-01-01T10:00:00.5+02:00", Date.parse("2026-01-01T10:00:00.5+02:00")],
    ["yesterday", null],
    ["10", null],
    ["10x", null],
    ["2026-13-45", null],
    ["", null],
  ];
  assertEquals(cases.map(([t]) => parseSince(t, now)), cases.map(([, want]) => want));
});

Deno.test("logs: filters and the line for people", () => {
  const run: LogRecord = {
    timestamp: "2026-01-02T12:00:00.000Z",
    kind: "run",
    key: "user:/h/hooks.json:PreToolUse:0:0",
    event: "PreToolUse",
    status: "failed",
    duration_ms: 12,
    reason: "exit 3",
    exit_code: 3,
    session_id: "s1",
  };
  const warn: LogRecord = {
    timestamp: "2026-01-02T11:00:00.000Z",
    kind: "warning",
    code: "W_PARSE",
    message: "JSON does not parse: expected a value",
    source: "/h/hooks.json",
    line: 3,
    column: 5,
  };
  assertEquals(
    [
      selects(run, { key: "PreToolUse:0:0" }),
      selects(run, { key: "ToolUse:0:0" }),
      selects(warn, { key: "PreToolUse:0:0" }),
      selects(run, { session: "s1" }),
      selects(warn, { session: "s1" }),
      selects(run, { since: Date.parse("2026-01-02T11:30:00Z") }),
      selects(warn, { since: Date.parse("2026-01-02T11:30:00Z") }),
    ],
    [true, false, false, true, false, true, false],
  );
  // --status and --event select runs (issue 36: the columns the help lists can be filtered on).
  assertEquals(
    [
      selects(run, { status: new Set(["failed", "blocked"]) }),
      selects(run, { status: new Set(["completed"]) }),
      selects(warn, { status: new Set(["failed"]) }),
      selects(run, { event: "PreToolUse" }),
      selects(run, { event: "Stop" }),
      selects(warn, { event: "PreToolUse" }),
    ],
    [true, false, false, true, false, false],
  );
  // Local time of day (the day and the session open each group of records), the key's tail,
  // fitted to 80 columns: what does not fit goes on indented lines.
  const at = (iso: string) => localTime(iso, true).slice(11);
  const day = localTime(run.timestamp).slice(0, 10);
  assertEquals([formatRecord(run), formatRecord(warn), recordGroup(run), recordGroup(warn)], [
    [`${at(run.timestamp)}  failed      12 ms  /h/hooks.json:PreToolUse:0:0  (exit 3)`],
    [`${at(warn.timestamp)}  warning  W_PARSE /h/hooks.json:3:5: JSON does not parse: expected a`, "    value"],
    `── ${day} · session s1`,
    `── ${localTime(warn.timestamp).slice(0, 10)} · no session`,
  ]);
  // A project hook's key from its repository's folder; the home as ~; a long reason wraps.
  const project = {
    ...run,
    key: "project:/h/alice/src/my-repo/.mind/hooks.json:PreToolUse:0:0",
    reason: "timed out after 600 s",
  } as LogRecord;
  assertEquals(formatRecord(project, { userHome: "/h/alice", width: 80 }), [
    `${at(run.timestamp)}  failed      12 ms  my-repo/.mind/hooks.json:PreToolUse:0:0  exit 3`,
    "    (timed out after 600 s)",
  ]);
  const user = { ...run, key: "user:/h/alice/.mind/hooks.json:Stop:0:0" } as LogRecord;
  assertEquals(formatRecord(user, { userHome: "/h/alice", width: 80 }), [
    `${at(run.timestamp)}  failed      12 ms  ~/.mind/hooks.json:Stop:0:0  (exit 3)`,
  ]);
});
