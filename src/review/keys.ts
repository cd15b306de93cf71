/**
 * Turning the bytes a terminal in raw mode sends into key names for `review`:
 * arrows, Page Up/Down, Home/End, F1, Backspace (both the CSI `ESC [` and the SS3 `ESC O`
 * forms that terminals send in cursor-key application mode), Ctrl-C/Ctrl-D,
 * and printable characters. Unknown escape sequences are consumed whole so
 * their bytes never read as letters (an unknown `ESC [ 2 0 0 ~` must not
 * trigger the `0` or `~` actions).
 * @module
 */

/** A key the review screen understands; printable ASCII characters are themselves. */
export type Key =
  | "up"
  | "down"
  | "left"
  | "right"
  | "pageup"
  | "pagedown"
  | "home"
  | "end"
  | "f1"
  | "escape"
  | "enter"
  | "ctrl-c"
  | "ctrl-d"
  | "ctrl-l"
  | "backspace"
  | string;

const CSI_TILDE: Record<string, Key> = {
  "1": "home",
  "7": "home",
  "4": "end",
  "8": "end",
  "5": "pageup",
  "6": "pagedown",
  "11": "f1",
};
const FINAL: Record<string, Key> = { A: "up", B: "down", C: "right", D: "left", H: "home", F: "end" };
/** After SS3 (`ESC O`) only: F1 (`ESC O P`). */
const SS3_FINAL: Record<string, Key> = { ...FINAL, P: "f1" };

/** Splits one read of terminal input into keys. */
export function parseKeys(bytes: Uint8Array): Key[] {
  const keys: Key[] = [];
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i];
    if (b === 0x1b) {
      const next = bytes[i + 1];
      if (next === 0x5b /* [ */) {
        // CSI: parameter and intermediate bytes, then one final byte in 0x40..0x7e.
        let j = i + 2;
        while (j < bytes.length && (bytes[j] < 0x40 || bytes[j] > 0x7e)) j++;
        const params = new TextDecoder().decode(bytes.subarray(i + 2, j));
        const final = j < bytes.length ? String.fromCharCode(bytes[j]) : "";
        if (final === "~") {
          const k = CSI_TILDE[params.split(";", 1)[0]];
          if (k) keys.push(k);
        } else if (FINAL[final]) keys.push(FINAL[final]);
        i = j + 1;
      } else if (next === 0x4f /* O */ && i + 2 < bytes.length) {
        const k = SS3_FINAL[String.fromCharCode(bytes[i + 2])];
        if (k) keys.push(k);
        i += 3;
      } else {
        keys.push("escape");
        i++;
      }
      continue;
    }
    if (b === 0x03) keys.push("ctrl-c");
    else if (b === 0x04) keys.push("ctrl-d");
    else if (b === 0x0c) keys.push("ctrl-l");
    else if (b === 0x0d || b === 0x0a) keys.push("enter");
    else if (b === 0x7f || b === 0x08) keys.push("backspace");
    else if (b >= 0x20 && b < 0x7f) keys.push(String.fromCharCode(b));
    // Other bytes (other controls, UTF-8 text) have no meaning here and are dropped.
    i++;
  }
  return keys;
}
