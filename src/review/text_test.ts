/**
 * Display widths of `review` (src/review/text.ts) on real samples, checked against what a terminal
 * shows: the `tmux` column is the number of cells tmux 3.3a (Debian, C.UTF-8) advanced the cursor
 * after printing the sample, recorded with fixtures/review/cell_probe.ts; the live test below
 * measures it again whenever tmux is installed. Where mind's width differs from tmux 3.3a, `why`
 * says which terminals draw it the mind way.
 */
import { assertEquals } from "../../tests/helpers/assert.ts";
import { cleanEnv, sq, tmuxAvailable } from "../../fixtures/review/harness.ts";
import { displayWidth, fit, truncate, wrap } from "./text.ts";

type Sample = { name: string; text: string; width: number; tmux: number; why?: string };

/** Emoji presentation is drawn wide by tmux ≥ 3.4 (tmux issue 3923) and by most terminals; tmux 3.3a ignores VS16. */
const VS16 = "VS16 asks for emoji presentation: 2 cells in tmux 3.4 and later and in most terminals";

const SAMPLES: Sample[] = [
  // Emoji, one code point each (East Asian Width W since Unicode 9).
  { name: "grinning face U+1F600", text: "\u{1F600}", width: 2, tmux: 2 },
  { name: "rocket U+1F680", text: "\u{1F680}", width: 2, tmux: 2 },
  { name: "stop sign U+1F6D1", text: "\u{1F6D1}", width: 2, tmux: 2 },
  { name: "green circle U+1F7E2", text: "\u{1F7E2}", width: 2, tmux: 2 },
  { name: "ringed planet U+1FA90", text: "\u{1FA90}", width: 2, tmux: 2 },
  { name: "melting face U+1FAE0", text: "\u{1FAE0}", width: 2, tmux: 2 },
  { name: "watch U+231A", text: "\u231A", width: 2, tmux: 2 },
  { name: "hourglass flowing U+23F3", text: "\u23F3", width: 2, tmux: 2 },
  { name: "hot beverage U+2615", text: "\u2615", width: 2, tmux: 2 },
  { name: "high voltage U+26A1", text: "\u26A1", width: 2, tmux: 2 },
  { name: "check mark button U+2705", text: "\u2705", width: 2, tmux: 2 },
  { name: "cross mark U+274C", text: "\u274C", width: 2, tmux: 2 },
  { name: "star U+2B50", text: "\u2B50", width: 2, tmux: 2 },
  { name: "mahjong red dragon U+1F004", text: "\u{1F004}", width: 2, tmux: 2 },
  { name: "joker U+1F0CF", text: "\u{1F0CF}", width: 2, tmux: 2 },
  { name: "OK button U+1F197", text: "\u{1F197}", width: 2, tmux: 2 },
  { name: "thumbs up U+1F44D", text: "\u{1F44D}", width: 2, tmux: 2 },
  { name: "red apple U+1F34E", text: "\u{1F34E}", width: 2, tmux: 2 },
  // Emoji sequences: one glyph each (UTS #51).
  {
    name: "thumbs up, medium skin tone",
    text: "\u{1F44D}\u{1F3FD}",
    width: 2,
    tmux: 4,
    why: "a modifier sequence is one glyph: 2 cells in current terminals and in tmux releases that combine modifiers",
  },
  { name: "family (ZWJ sequence)", text: "\u{1F468}\u200D\u{1F469}\u200D\u{1F467}", width: 2, tmux: 2 },
  { name: "flag of Japan (regional indicators)", text: "\u{1F1EF}\u{1F1F5}", width: 2, tmux: 2 },
  {
    name: "flag of England (tag sequence)",
    text: "\u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}",
    width: 2,
    tmux: 2,
  },
  { name: "red heart + VS16", text: "\u2764\uFE0F", width: 2, tmux: 1, why: VS16 },
  { name: "red heart, text style", text: "\u2764", width: 1, tmux: 1 },
  { name: "keycap 1", text: "1\uFE0F\u20E3", width: 2, tmux: 1, why: VS16 },
  { name: "watch + VS15 (text style)", text: "\u231A\uFE0E", width: 2, tmux: 2 },
  // Combining marks: no cell of their own.
  { name: "e + combining acute", text: "e\u0301", width: 1, tmux: 1 },
  { name: "a + ring above + dot below", text: "a\u030A\u0323", width: 1, tmux: 1 },
  { name: "a + combining enclosing circle", text: "a\u20DD", width: 1, tmux: 1 },
  { name: "Hebrew alef + qamats", text: "\u05D0\u05B8", width: 1, tmux: 1 },
  { name: "Thai ko kai + sara i", text: "\u0E01\u0E34", width: 1, tmux: 1 },
  { name: "Devanagari ki (spacing vowel sign)", text: "\u0915\u093F", width: 2, tmux: 2 },
  { name: "Hangul jamo ga (conjoining)", text: "\u1100\u1161", width: 2, tmux: 2 },
  // Format characters: invisible, except the soft hyphen.
  { name: "zero width space", text: "a\u200Bb", width: 2, tmux: 2 },
  { name: "zero width non-joiner", text: "a\u200Cb", width: 2, tmux: 2 },
  { name: "word joiner", text: "a\u2060b", width: 2, tmux: 2 },
  { name: "zero width no-break space (BOM)", text: "a\uFEFFb", width: 2, tmux: 2 },
  { name: "soft hyphen", text: "a\u00ADb", width: 3, tmux: 3 },
  // East Asian text.
  { name: "CJK ideograph 中", text: "\u4E2D", width: 2, tmux: 2 },
  { name: "fullwidth A", text: "\uFF21", width: 2, tmux: 2 },
  { name: "halfwidth katakana ka", text: "\uFF76", width: 1, tmux: 1 },
  { name: "ideographic space", text: "\u3000", width: 2, tmux: 2 },
  { name: "CJK extension B U+20000", text: "\u{20000}", width: 2, tmux: 2 },
  { name: "CJK extension G U+30000", text: "\u{30000}", width: 2, tmux: 2 },
  { name: "Greek alpha (ambiguous: narrow outside East Asian locales)", text: "\u03B1", width: 1, tmux: 1 },
  { name: "box drawing", text: "\u2500", width: 1, tmux: 1 },
  // A line of mixed text.
  {
    name: "mixed line",
    text: "ok \u2705 \u4E2D\u6587 e\u0301 \u{1F468}\u200D\u{1F469}\u200D\u{1F467}!",
    width: 16,
    tmux: 16,
  },
];

Deno.test("displayWidth: every sample takes the cells a terminal gives it", () => {
  assertEquals(
    SAMPLES.map((s) => ({ name: s.name, width: displayWidth(s.text) })),
    SAMPLES.map((s) => ({ name: s.name, width: s.width })),
  );
});

Deno.test("displayWidth: every difference from tmux 3.3a is a documented one", () => {
  assertEquals(SAMPLES.filter((s) => s.width !== s.tmux && !s.why).map((s) => s.name), []);
  assertEquals(SAMPLES.filter((s) => s.width === s.tmux && s.why).map((s) => s.name), []);
});

Deno.test("truncate, fit and wrap never split a cluster and count cells, not code points", () => {
  const family = "\u{1F468}\u200D\u{1F469}\u200D\u{1F467}";
  const accented = "e\u0301";
  assertEquals(
    {
      family: truncate(`${family}abc`, 4),
      familyTooWide: truncate(`${family}abc`, 2),
      accents: truncate(accented.repeat(4), 3),
      cjk: truncate("\u4E2D\u6587\u4E2D\u6587", 5),
      fitCjk: fit("\u4E2D", 4),
      fitFlag: fit("\u{1F1EF}\u{1F1F5}", 3),
      wrapEmoji: wrap(`${family}${family}${family}`, 5),
      wrapAccents: wrap(accented.repeat(5), 2),
      wrapWords: wrap("\u2705 done \u2705 done", 8, "  "),
    },
    {
      family: `${family}a…`,
      familyTooWide: "…",
      accents: `${accented}${accented}…`,
      cjk: "\u4E2D\u6587…",
      fitCjk: "\u4E2D  ",
      fitFlag: "\u{1F1EF}\u{1F1F5} ",
      wrapEmoji: [`${family}${family}`, family],
      wrapAccents: [accented.repeat(2), accented.repeat(2), accented],
      wrapWords: ["\u2705 done", "  \u2705 don", "  e"],
    },
  );
});

Deno.test("wrap: a cluster wider than the room still advances (Hangul initial jamo join into one cluster)", () => {
  // U+1100 U+1100: two initial jamo form one grapheme cluster of 4 cells.
  assertEquals(wrap("\u1100\u1100x", 3), ["\u1100\u1100", "x"]);
});

const HAVE_TMUX = await tmuxAvailable();

Deno.test({
  name: "displayWidth samples, measured live: the cells tmux advances the cursor by",
  ignore: !HAVE_TMUX,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "mind-width-" });
    const socket = `${dir}/tmux.sock`;
    const tmux = (args: string[]) =>
      new Deno.Command("tmux", {
        args: ["-S", socket, ...args],
        env: cleanEnv({ LANG: "C.UTF-8", LC_ALL: "C.UTF-8" }),
        clearEnv: true,
        stdout: "piped",
        stderr: "piped",
      }).output();
    try {
      const version = new TextDecoder().decode((await tmux(["-V"])).stdout).trim();
      await Deno.writeTextFile(`${dir}/samples.json`, JSON.stringify(SAMPLES.map((s) => s.text)));
      const probe = new URL("../../fixtures/review/cell_probe.ts", import.meta.url).pathname;
      const command = [Deno.execPath(), "run", "-q", "-A", probe, `${dir}/samples.json`, `${dir}/cells.json`]
        .map(sq).join(" ") + "; sleep 30";
      const started = await tmux(["new-session", "-d", "-x", "200", "-y", "10", command]);
      assertEquals(started.success, true, new TextDecoder().decode(started.stderr));
      let cells: number[] | null = null;
      for (let i = 0; i < 300 && cells === null; i++) {
        await new Promise((r) => setTimeout(r, 100));
        cells = await Deno.readTextFile(`${dir}/cells.json`).then(JSON.parse, () => null);
      }
      // Undocumented rows must match any tmux; the documented differences are tmux 3.3a's own.
      const rows = SAMPLES.map((s, i) => ({ s, live: cells?.[i] ?? null }))
        .filter(({ s }) => version === "tmux 3.3a" || !s.why);
      assertEquals(
        rows.map(({ s, live }) => ({ name: s.name, cells: live })),
        rows.map(({ s }) => ({ name: s.name, cells: s.why ? s.tmux : s.width })),
        version,
      );
    } finally {
      await tmux(["kill-server"]).catch(() => {});
      await Deno.remove(dir, { recursive: true });
    }
  },
});
