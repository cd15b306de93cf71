/**
 * The lexer of the command reader (SPEC §3.5 r3): a POSIX shell command line, split the way `sh -c`
 * splits it, into words and operators. Words keep their parts unexpanded (literal text, quoted or
 * not; `$NAME` / `${NAME…}`; `$(…)` and backquotes; `$((…))`; `<(…)`; a leading `~`), because what
 * a variable holds depends on the assignments and `cd`s before it: the reader (src/shell/shell_reader.ts)
 * expands them as it walks the commands.
 *
 * Understood: quotes (`'…'`, `"…"`, `$'…'`, `$"…"`), backslash escapes and line continuations,
 * comments, here-documents (`<<`, `<<-`: the body is skipped; an unquoted one's `$(…)` are kept, they
 * run), here-strings, redirections (`2>&1` included), and every operator of the grammar.
 *
 * Hostile input is bounded: lexing is linear in the text; `${…}` defaults nest at most
 * {@link MAX_NESTING} deep (deeper text becomes a `deep` part, which the reader reports).
 * @module
 */

/** `$(…)`, `sh -c` and `${…:-…}` nest at most this deep; deeper text is not read (the hook is unpinnable). */
export const MAX_NESTING = 8;

/** One piece of a word, before expansion. `q`: inside quotes (no field splitting, no globbing). */
export type Part =
  | { k: "lit"; text: string; q: boolean }
  | { k: "var"; name: string; op: string; arg: Part[] | null; q: boolean; raw: string }
  | { k: "sub"; body: string; q: boolean; raw: string; proc: boolean }
  | { k: "arith"; q: boolean; raw: string }
  | { k: "tilde"; user: string }
  | { k: "deep"; raw: string };

/** A word: its parts and its text as written. */
export type Word = { parts: Part[]; raw: string };

/** A here-document's body: its parts when its delimiter is unquoted (expansions run), else null. */
export type HereBody = { parts: Part[] | null };

/** A lexed token. */
export type Token =
  | { t: "word"; w: Word }
  | { t: "op"; op: string; here?: HereBody };

/** Operators, longest first so that `&&` is not read as two `&`. */
const OPERATORS = [
  "&>>",
  "<<<",
  "<<-",
  ";;&",
  "&&",
  "||",
  ";;",
  ";&",
  "|&",
  "&>",
  ">>",
  ">|",
  "<<",
  "<>",
  "<&",
  ">&",
  ";",
  "&",
  "|",
  "(",
  ")",
  "<",
  ">",
];
/** Characters that start a quote, an escape or an expansion inside a word. */
const WORD_SPECIAL = new Set(["\\", "'", '"', "$", "`"]);
/** The first characters of the operators. */
const OP_START = new Set(["&", "|", ";", "(", ")", "<", ">"]);
const WORD_END = new Set([" ", "\t", "\n", "\r", ";", "&", "|", "(", ")", "<", ">"]);

/** Splits a command line into tokens. Never throws. */
export function lex(src: string): Token[] {
  const tokens: Token[] = [];
  const pending: { delim: string; strip: boolean; quoted: boolean; into: HereBody }[] = [];
  let i = 0;
  const n = src.length;
  while (i < n) {
    const c = src[i];
    if (c === " " || c === "\t" || c === "\r") {
      i++;
      continue;
    }
    if (c === "\\" && src[i + 1] === "\n") {
      i += 2;
      continue;
    }
    if (c === "\n") {
      tokens.push({ t: "op", op: "\n" });
      i++;
      // Here-documents start on the next line: their bodies are skipped (and read for `$(…)`).
      for (const h of pending.splice(0)) i = readHereBody(src, i, h);
      continue;
    }
    if (c === "#") {
      const nl = src.indexOf("\n", i);
      i = nl < 0 ? n : nl;
      continue;
    }
    if ((c === "<" || c === ">") && src[i + 1] === "(") {
      // Process substitution: a command of its own, its value a path nobody can know.
      const end = matchingClose(src, i + 2, "(", ")", 1);
      const w = readWord(src, end, 0);
      const part: Part = { k: "sub", body: src.slice(i + 2, end - 1), q: false, raw: src.slice(i, end), proc: true };
      tokens.push({ t: "word", w: { parts: [part, ...w.word.parts], raw: src.slice(i, w.end) } });
      i = w.end;
      continue;
    }
    const op = OP_START.has(c) ? OPERATORS.find((o) => src.startsWith(o, i)) : undefined;
    if (op !== undefined) {
      // `2>` and `2>&1`: a number right before a redirection belongs to it.
      const last = tokens.at(-1);
      if (last?.t === "word" && /^\d+$/.test(last.w.raw) && /[<>]/.test(op) && !/\s/.test(src[i - 1] ?? " ")) {
        tokens.pop();
      }
      const tok: Token = { t: "op", op };
      tokens.push(tok);
      i += op.length;
      if (op === "<<" || op === "<<-") {
        while (src[i] === " " || src[i] === "\t") i++;
        const w = readWord(src, i, 0);
        const delim = w.word.parts.map((p) => p.k === "lit" ? p.text : "").join("");
        const quoted = w.word.parts.some((p) => p.k === "lit" && p.q);
        tok.here = { parts: null };
        pending.push({ delim, strip: op === "<<-", quoted, into: tok.here });
        tokens.push({ t: "word", w: w.word });
        i = w.end;
      }
      continue;
    }
    const w = readWord(src, i, 0);
    tokens.push({ t: "word", w: w.word });
    i = w.end;
  }
  return tokens;
}

/** Skips a here-document body starting at `i`; returns the offset after its delimiter line. */
function readHereBody(
  src: string,
  i: number,
  h: { delim: string; strip: boolean; quoted: boolean; into: HereBody },
): number {
  const start = i;
  let bodyEnd = src.length;
  let next = src.length;
  while (i < src.length) {
    const nl = src.indexOf("\n", i);
    const lineEnd = nl < 0 ? src.length : nl;
    let line = src.slice(i, lineEnd);
    if (h.strip) line = line.replace(/^\t+/, "");
    if (line === h.delim) {
      bodyEnd = i;
      next = nl < 0 ? src.length : nl + 1;
      break;
    }
    i = lineEnd + 1;
  }
  if (!h.quoted) h.into.parts = readDoubleQuoted(src.slice(start, bodyEnd), 0, 0, false).parts;
  return next;
}

/** Reads one word starting at `start`. */
export function readWord(src: string, start: number, depth: number): { word: Word; end: number } {
  // The common word: plain characters only.
  let plain = start;
  while (plain < src.length && !WORD_END.has(src[plain]) && !WORD_SPECIAL.has(src[plain])) plain++;
  if (plain > start && src[start] !== "~" && (plain === src.length || WORD_END.has(src[plain]))) {
    const text = src.slice(start, plain);
    return { word: { parts: [{ k: "lit", text, q: false }], raw: text }, end: plain };
  }
  const parts: Part[] = [];
  let lit = "";
  const flush = () => {
    if (lit !== "") parts.push({ k: "lit", text: lit, q: false });
    lit = "";
  };
  let i = start;
  const n = src.length;
  if (src[i] === "~") {
    // Tilde prefix: `~` or `~user`, up to the first `/` (unquoted).
    const m = /^~([+-]|[A-Za-z0-9._-]*)(?=\/|$|[\s;&|()<>])/.exec(src.slice(i, i + 260));
    if (m) {
      // `~+` and `~-` are $PWD and $OLDPWD (bash, zsh).
      const dir = m[1] === "+" ? "PWD" : m[1] === "-" ? "OLDPWD" : null;
      parts.push(dir ? { k: "var", name: dir, op: "", arg: null, q: true, raw: m[0] } : { k: "tilde", user: m[1] });
      i += m[0].length;
    }
  }
  while (i < n) {
    const c = src[i];
    if (WORD_END.has(c)) break;
    if (c === "\\") {
      if (src[i + 1] === "\n") i += 2;
      else {
        flush();
        parts.push({ k: "lit", text: src[i + 1] ?? "", q: true });
        i += 2;
      }
      continue;
    }
    if (c === "'") {
      flush();
      const close = src.indexOf("'", i + 1);
      const end = close < 0 ? n : close;
      parts.push({ k: "lit", text: src.slice(i + 1, end), q: true });
      i = end + 1;
      continue;
    }
    if (c === '"') {
      flush();
      const r = readDoubleQuoted(src, i + 1, depth, true);
      parts.push(...r.parts);
      i = r.end;
      continue;
    }
    const expansion = readExpansion(src, i, depth, false);
    if (expansion !== null) {
      flush();
      parts.push(...expansion.parts);
      i = expansion.end;
      continue;
    }
    // A run of plain characters at once.
    let j = i + 1;
    while (j < n && !WORD_END.has(src[j]) && !WORD_SPECIAL.has(src[j])) j++;
    lit += src.slice(i, j);
    i = j;
  }
  flush();
  return { word: { parts, raw: src.slice(start, i) }, end: i };
}

/**
 * A `$…` or a backquoted command at `i` (inside `"…"` when `quoted`): its parts and the offset after
 * it; null when `src[i]` starts neither. The word reader and the double-quote reader share it.
 */
function readExpansion(
  src: string,
  i: number,
  depth: number,
  quoted: boolean,
): { parts: Part[]; end: number } | null {
  if (src[i] === "$") return readDollar(src, i, depth, quoted);
  if (src[i] !== "`") return null;
  const r = readBackquote(src, i + 1);
  return { parts: [{ k: "sub", body: r.body, q: quoted, raw: src.slice(i, r.end), proc: false }], end: r.end };
}

/**
 * The body of `"…"` from just after the opening quote (or a whole here-document body when `closing`
 * is false): its parts, all quoted, and the offset after the close.
 */
function readDoubleQuoted(
  src: string,
  start: number,
  depth: number,
  closing: boolean,
): { parts: Part[]; end: number } {
  if (depth > MAX_NESTING) {
    const end = closing ? matchingClose(src, start, "", '"', 1) : src.length;
    return { parts: [{ k: "deep", raw: src.slice(start - 1, end) }], end };
  }
  const parts: Part[] = [];
  let lit = "";
  let hadText = false;
  const flush = () => {
    if (lit !== "") parts.push({ k: "lit", text: lit, q: true });
    lit = "";
  };
  let i = start;
  while (i < src.length) {
    const c = src[i];
    if (c === '"' && closing) {
      flush();
      // `""` is an empty word, not no word.
      if (parts.length === 0 && !hadText) parts.push({ k: "lit", text: "", q: true });
      return { parts, end: i + 1 };
    }
    hadText = true;
    if (c === "\\") {
      const next = src[i + 1];
      if (next === "\n") i += 2;
      else if (next === "$" || next === "`" || next === '"' || next === "\\") {
        lit += next;
        i += 2;
      } else {
        lit += c;
        i++;
      }
      continue;
    }
    const expansion = readExpansion(src, i, depth, true);
    if (expansion !== null) {
      flush();
      parts.push(...expansion.parts);
      i = expansion.end;
      continue;
    }
    lit += c;
    i++;
  }
  flush();
  if (parts.length === 0) parts.push({ k: "lit", text: "", q: true });
  return { parts, end: src.length };
}

/** The parameter operators of `${NAME<op>word}` whose word is read (defaults and alternatives). */
const PARAM_OPS = [":-", ":=", ":+", ":?", "-", "=", "+", "?"];

/** A `$` expansion at `start`. */
function readDollar(src: string, start: number, depth: number, q: boolean): { parts: Part[]; end: number } {
  const next = src[start + 1];
  if (next === "'") {
    const r = readAnsiC(src, start + 2);
    return { parts: [{ k: "lit", text: r.text, q: true }], end: r.end };
  }
  if (next === '"' && !q) return readDoubleQuoted(src, start + 2, depth + 1, true);
  if (next === "(") {
    if (src[start + 2] === "(") {
      const end = matchingClose(src, start + 3, "(", ")", 2);
      return { parts: [{ k: "arith", q, raw: src.slice(start, end) }], end };
    }
    const end = matchingClose(src, start + 2, "(", ")", 1);
    return {
      parts: [{ k: "sub", body: src.slice(start + 2, end - 1), q, raw: src.slice(start, end), proc: false }],
      end,
    };
  }
  if (next === "{") {
    const end = matchingClose(src, start + 2, "{", "}", 1);
    const raw = src.slice(start, end);
    const body = src.slice(start + 2, end - 1);
    const m = /^([A-Za-z_]\w*|\d+|[@*#?$!\-])/.exec(body);
    if (!m || body.startsWith("#") && body.length > 1 || body.startsWith("!")) {
      // `${#NAME}`, `${!NAME}` and what no parser of ours reads: a value nobody can know here.
      return { parts: [{ k: "var", name: "", op: "other", arg: null, q, raw }], end };
    }
    const rest = body.slice(m[1].length);
    if (rest === "") return { parts: [{ k: "var", name: m[1], op: "", arg: null, q, raw }], end };
    const op = PARAM_OPS.find((o) => rest.startsWith(o));
    if (op === undefined) return { parts: [{ k: "var", name: m[1], op: "other", arg: null, q, raw }], end };
    if (depth >= MAX_NESTING) return { parts: [{ k: "deep", raw }], end };
    const text = rest.slice(op.length);
    const arg = q
      ? readDoubleQuoted(text, 0, depth + 1, false).parts
      : readWord(text.replace(/[\s;&|()<>]/g, (s) => "\\" + s), 0, depth + 1).word.parts;
    return { parts: [{ k: "var", name: m[1], op, arg, q, raw }], end };
  }
  const name = /^[A-Za-z_]\w*/.exec(src.slice(start + 1, start + 257));
  if (name) {
    const end = start + 1 + name[0].length;
    return { parts: [{ k: "var", name: name[0], op: "", arg: null, q, raw: src.slice(start, end) }], end };
  }
  if (next !== undefined && /[0-9@*#?$!\-]/.test(next)) {
    return {
      parts: [{ k: "var", name: next, op: "", arg: null, q, raw: src.slice(start, start + 2) }],
      end: start + 2,
    };
  }
  return { parts: [{ k: "lit", text: "$", q }], end: start + 1 };
}

/** A frame of {@link matchingClose}: code (counting one kind of bracket), a double-quoted string, or
 * the patterns and bodies of a `case … esac` (whose `pattern)` closes nothing). */
type Frame = { kind: "code"; open: string; close: string; depth: number } | { kind: "dq" } | { kind: "case" };

/** Whether the reserved word `word` starts at `i` (a word of its own). */
function wordAt(src: string, i: number, word: string): boolean {
  return src.startsWith(word, i) && /^$|[\s;&|()]/.test(src[i - 1] ?? "") &&
    /^$|[\s;&|()]/.test(src[i + word.length] ?? "");
}

/**
 * The offset just after the close matching an opening already consumed (`depth` of them), skipping
 * quotes, comments, `case … esac` and the `$(…)` inside double quotes. Iterative (an explicit stack),
 * so that no nesting overflows the call stack; `open` `""` with close `"` finds the end of a
 * double-quoted string.
 */
export function matchingClose(src: string, start: number, open: string, close: string, depth: number): number {
  const frames: Frame[] = [close === '"' ? { kind: "dq" } : { kind: "code", open, close, depth }];
  const parens = open === "(";
  let i = start;
  while (i < src.length) {
    const f = frames[frames.length - 1];
    const c = src[i];
    if (c === "\\") {
      i += 2;
      continue;
    }
    if (f.kind === "dq") {
      if (c === '"') {
        frames.pop();
        i++;
        if (frames.length === 0) return i;
      } else if (c === "$" && src[i + 1] === "(") {
        frames.push({ kind: "code", open: "(", close: ")", depth: 1 });
        i += 2;
      } else i++;
      continue;
    }
    if (c === "'") {
      const q = src.indexOf("'", i + 1);
      i = q < 0 ? src.length : q + 1;
      continue;
    }
    if (c === '"') {
      frames.push({ kind: "dq" });
      i++;
      continue;
    }
    if (parens && c === "#" && /^$|[\s;&|(]/.test(src[i - 1] ?? "")) {
      // A comment inside a command substitution runs to the end of its line.
      const nl = src.indexOf("\n", i);
      i = nl < 0 ? src.length : nl;
      continue;
    }
    if (parens && wordAt(src, i, "case")) {
      frames.push({ kind: "case" });
      i += 4;
      continue;
    }
    if (f.kind === "case") {
      if (wordAt(src, i, "esac")) {
        frames.pop();
        i += 4;
      } else if (c === "$" && src[i + 1] === "(") {
        frames.push({ kind: "code", open: "(", close: ")", depth: 1 });
        i += 2;
      } else i++;
      continue;
    }
    if (c === f.open) f.depth++;
    else if (c === f.close && --f.depth === 0) {
      frames.pop();
      if (frames.length === 0) return i + 1;
    }
    i++;
  }
  return src.length;
}

/** A backquoted command from just after the opening quote: its body (escapes removed) and the offset after it. */
function readBackquote(src: string, start: number): { body: string; end: number } {
  let body = "";
  let i = start;
  while (i < src.length) {
    const c = src[i];
    if (c === "\\" && (src[i + 1] === "`" || src[i + 1] === "\\" || src[i + 1] === "$")) {
      body += src[i + 1];
      i += 2;
      continue;
    }
    if (c === "`") return { body, end: i + 1 };
    body += c;
    i++;
  }
  return { body, end: src.length };
}

const ANSI_C: Record<string, string> = {
  n: "\n",
  t: "\t",
  r: "\r",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "?": "?",
  e: "\x1b",
  E: "\x1b",
  a: "\x07",
  b: "\b",
  f: "\f",
  v: "\v",
};

/** The body of `$'…'` from just after its quote, its escapes decoded as bash decodes them. */
function readAnsiC(src: string, start: number): { text: string; end: number } {
  let text = "";
  let i = start;
  while (i < src.length) {
    const c = src[i];
    if (c === "'") return { text, end: i + 1 };
    if (c === "\\" && i + 1 < src.length) {
      const e = src[i + 1];
      const numeric = e === "x"
        ? /^[0-9a-fA-F]{1,2}/
        : e === "u"
        ? /^[0-9a-fA-F]{1,4}/
        : e === "U"
        ? /^[0-9a-fA-F]{1,8}/
        : null;
      if (numeric) {
        const m = numeric.exec(src.slice(i + 2, i + 10));
        if (m) {
          const code = parseInt(m[0], 16);
          text += code <= 0x10ffff ? String.fromCodePoint(code) : "";
          i += 2 + m[0].length;
          continue;
        }
      }
      const octal = /^[0-7]{1,3}/.exec(src.slice(i + 1, i + 4));
      if (octal) {
        text += String.fromCharCode(parseInt(octal[0], 8) & 0xff);
        i += 1 + octal[0].length;
        continue;
      }
      if (e === "c" && i + 2 < src.length) {
        text += String.fromCharCode(src.charCodeAt(i + 2) & 0x1f);
        i += 3;
        continue;
      }
      text += ANSI_C[e] ?? "\\" + e;
      i += 2;
      continue;
    }
    text += c;
    i++;
  }
  return { text, end: src.length };
}
