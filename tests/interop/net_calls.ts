/**
 * What in a host's `strace -f -e trace=connect,sendto` could have left 127.0.0.1 (the interop check "nothing
 * leaves 127.0.0.1"). The run is inside a loopback-only network namespace (tests/interop/harness.ts): that is
 * the proof. The trace says what was tried: a `connect` or `sendto` to an address off loopback counts when it
 * could have sent something — it returned success, `EINPROGRESS` (a non-blocking connect under way), or its
 * result is not in the trace. One the kernel refused at once (`ENETUNREACH`: the namespace has no route)
 * sent nothing, and counted as leaving it failed CI on a loaded machine (a DNS lookup's connect).
 * strace splits a call another thread interrupts (`… <unfinished ...>`, then `<... connect resumed>) = …`):
 * the two halves are joined by pid.
 * @module
 */

/** The errors with which the kernel refuses a connect or a send before anything goes out. */
const REFUSED = new Set([
  "ENETUNREACH",
  "EHOSTUNREACH",
  "ENETDOWN",
  "EADDRNOTAVAIL",
  "EACCES",
  "EPERM",
  "EAFNOSUPPORT",
]);

const LOOPBACK = /inet_addr\("127\.\d+\.\d+\.\d+"\)|inet_pton\(AF_INET6, "::1"|inet_pton\(AF_INET6, "::ffff:127\./;

/** One whole call: its text (the address) and its result (`= 0`, `= -1 ENETUNREACH (…)`), or no result. */
type Call = { pid: string; text: string; result: string | null };

/** The connect/sendto calls of a trace, unfinished halves joined with their resumption. */
export function traceCalls(trace: string): Call[] {
  const calls: Call[] = [];
  const open = new Map<string, Call>();
  for (const line of trace.split("\n")) {
    const m = /^(\d+)\s+(.*)$/.exec(line) ?? [line, "", line];
    const [pid, body] = [m[1], m[2]];
    const resumed = /^<\.\.\. (connect|sendto) resumed>(.*)$/.exec(body);
    if (resumed) {
      const call = open.get(pid);
      if (call) {
        call.text += resumed[2];
        call.result = /\)\s*=\s*(.*)$/.exec(resumed[2])?.[1] ?? null;
        open.delete(pid);
      }
      continue;
    }
    if (!/^(connect|sendto)\(/.test(body)) continue;
    if (body.endsWith("<unfinished ...>")) {
      const call = { pid, text: body, result: null };
      calls.push(call);
      open.set(pid, call);
      continue;
    }
    calls.push({ pid, text: body, result: /\)\s*=\s*(.*)$/.exec(body)?.[1] ?? null });
  }
  return calls;
}

/** True when a call's result says the kernel refused it before anything went out. */
function refused(result: string | null): boolean {
  const m = /^-1 (E[A-Z]+)/.exec(result ?? "");
  return m !== null && REFUSED.has(m[1]);
}

/** The calls to an internet address off loopback that could have sent something (each as its trace text). */
export function leavingCalls(trace: string): string[] {
  return traceCalls(trace)
    .filter((c) => /sa_family=AF_INET6?\b/.test(c.text) && !LOOPBACK.test(c.text) && !refused(c.result))
    .map((c) => `${c.text}${c.result === null ? " (no result)" : ""}`);
}

/** The calls to loopback (the mock model): at least one shows the check saw the host's traffic at all. */
export function loopbackCalls(trace: string): string[] {
  return traceCalls(trace).filter((c) => LOOPBACK.test(c.text)).map((c) => c.text);
}
