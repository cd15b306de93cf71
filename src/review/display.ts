/**
 * How `list`, `review`, `trust` and `logs` show paths, keys and times to people (SPEC §14 r3): a
 * path inside the project relative to its root (`.mind/hooks.json`), one in the OS user's home with
 * `~`, anything else as it is; a key as its shortest tail that still names one hook and that
 * `trust`/`untrust`/`logs --key` accept (`.mind/hooks.json:PreToolUse:0:0`); a time as local time and
 * age (`2026-12-01 18:38 (2 h ago)`). `--json` keeps absolute paths, full keys and ISO times.
 * @module
 */
import { displayPath } from "../config/problems.ts";
import { isInside } from "../util/paths.ts";

/** Where paths are shown from: the project root and the OS user's home (either may be unknown). */
export type PathContext = { projectRoot: string | null; userHome: string | null };

/** `path` for people: relative to the project root when inside it, else with `~` for the home. */
export function peoplePath(path: string, ctx: PathContext): string {
  const root = ctx.projectRoot;
  if (root !== null && path !== root && isInside(root, path)) {
    return path.slice(root.length + (root.endsWith("/") || root.endsWith("\\") ? 0 : 1));
  }
  return displayPath(path, ctx.userHome);
}

/** A key's parts: `<layer>:<path>:<Event>:<group>:<handler>` (the path may hold `:`). */
export function keyParts(key: string): { layer: string; path: string; rest: string } | null {
  const m = /^([a-z-]+):(.*):([A-Za-z]+:\d+:\d+)$/.exec(key);
  return m === null ? null : { layer: m[1], path: m[2], rest: m[3] };
}

/** The tails of `path` from its last segment to the whole, at its separators (`/` or `\`). */
function pathTails(path: string): string[] {
  const tails: string[] = [];
  for (let i = path.length - 1; i >= 0; i--) if (path[i] === "/" || path[i] === "\\") tails.push(path.slice(i + 1));
  tails.push(path);
  return tails.filter((t) => t !== "");
}

/**
 * Every key's tail for people: the shortest tail of it — at least its file's name, and for a file
 * inside the project at least its path from the root — that no other key of `keys` ends with. A
 * tail is what `trust KEY` accepts (src/trust/actions.ts `resolveKey`).
 */
export function keyTails(keys: readonly string[], ctx: PathContext): Map<string, string> {
  // How many keys end with each tail (at a boundary, as `keyHasTail` reads it): linear in the keys.
  const count = new Map<string, number>();
  for (const key of new Set(keys)) for (const t of boundaryTails(key)) count.set(t, (count.get(t) ?? 0) + 1);
  const out = new Map<string, string>();
  for (const key of keys) {
    const parts = keyParts(key);
    if (parts === null) {
      out.set(key, key);
      continue;
    }
    const relative = peoplePath(parts.path, ctx);
    const minimum = relative !== parts.path && !relative.startsWith("~") ? relative.split(/[\\/]/).length : 1;
    const tail = pathTails(parts.path).map((p) => `${p}:${parts.rest}`).find((t, i) =>
      i + 1 >= minimum && count.get(t) === 1
    );
    out.set(key, tail ?? key);
  }
  return out;
}

/**
 * Every tail of `key` that starts after a `:`, `/` or `\` (and the key itself), each once — only
 * those that hold its whole `Event:group:handler` end, since every tail shown does.
 */
function boundaryTails(key: string): Set<string> {
  const tails = new Set([key]);
  const last = key.length - (keyParts(key)?.rest.length ?? 0) - 1;
  for (let i = 0; i < last; i++) {
    const c = key.charCodeAt(i);
    if (c === 0x3a || c === 0x2f || c === 0x5c) tails.add(key.slice(i + 1));
  }
  return tails;
}

/**
 * A key for people without a catalog to compare it with (`logs`): the path from the project folder's
 * parent (`my-repo/.mind/hooks.json:Stop:0:0`) for a key of a project layer, else the path with `~`;
 * still a tail `logs --key` accepts, except for `~`.
 */
export function loneKeyTail(key: string, userHome: string | null): string {
  const parts = keyParts(key);
  if (parts === null) return key;
  const m = /(?:^|[\\/])([^\\/]+[\\/]\.(?:mind|claude|codex)[\\/].*)$/.exec(parts.path);
  if (m !== null && PROJECT_LAYERS.has(parts.layer)) return `${m[1]}:${parts.rest}`;
  return `${displayPath(parts.path, userHome)}:${parts.rest}`;
}

/** The layers whose files live in a project. */
const PROJECT_LAYERS: ReadonlySet<string> = new Set([
  "project",
  "claude-project",
  "codex-project",
  "gemini-project",
  "copilot-project",
]);

const pad = (n: number) => String(n).padStart(2, "0");

/** An ISO time as local time, `2026-12-01 18:38` (with `seconds`, `18:38:05`); unparsable ones as they are. */
export function localTime(iso: string, seconds = false): string {
  const t = new Date(iso);
  if (Number.isNaN(t.getTime())) return iso;
  const day = `${t.getFullYear()}-${pad(t.getMonth() + 1)}-${pad(t.getDate())}`;
  return `${day} ${pad(t.getHours())}:${pad(t.getMinutes())}${seconds ? `:${pad(t.getSeconds())}` : ""}`;
}

/** `5 s ago`, `3 min ago`, `2 h ago`, `4 d ago` (a time ahead of `now` counts as now). */
export function ago(iso: string, now: number): string {
  const s = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (Number.isNaN(s)) return "at an unknown time";
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return `${Math.floor(s / 86400)} d ago`;
}

/** `2026-12-01 18:38 (2 h ago)`. */
export function timeAndAge(iso: string, now: number): string {
  return Number.isNaN(Date.parse(iso)) ? iso : `${localTime(iso)} (${ago(iso, now)})`;
}
