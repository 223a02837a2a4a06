// The grammar of a shared link's state, in one place (early.js and calculators.js import it):
//
//   "#" segment ("&" segment)*
//   segment = widget-id ["~" form] "/" [pair (";" pair)*]
//   pair    = key "=" value        (key and value percent-encoded; a value is split at its first "=")
//
// `form` is how the values are written: none for the locale-neutral form the page writes (`32768`,
// `0.65`, choice ids: widgets/numbers.py `neutral`), or the language of typed text the page had not
// computed yet (the language switcher: `kw-vram-fit-1~da/context=8.192`). Python reads a value in its
// form (widgets/links.py, `numbers.of(form).parse(text)`); nothing here reads a number. A segment with no
// pair names a widget to open at, with the page's values ("Copy link" on an unchanged widget).

const SEGMENT = /^([\w-]+)(?:~([a-z]{2,3}(?:_[A-Z]{2})?))?\/(.*)$/;
const STATE = /^#[\w-]+(?:~[\w-]+)?\//;
export const NEUTRAL = "neutral";
const MAX_VALUE = 100; // characters of one value (widgets/links.py MAX_VALUE)
const MAX_PAIRS = 64; // a widget has fewer fields; a longer segment is cut there

/** Whether `hash` carries widgets' state (rather than a plain anchor such as `#section`). */
export function isState(hash) {
  return STATE.test(hash);
}

/**
 * The segments of a state fragment, in their order: each widget id with its form and its values
 * (decoded strings; a pair that does not decode is left out). A plain anchor gives none.
 * @param {string} hash
 * @returns {{id: string, form: string, values: Object<string, string>}[]}
 */
export function readLink(hash) {
  if (!isState(hash)) return [];
  const segments = [];
  for (const text of hash.slice(1).split("&")) {
    const match = SEGMENT.exec(text);
    if (!match) continue;
    /** @type {Record<string, string>} */
    const values = {};
    for (const pair of match[3].split(";").filter(Boolean).slice(0, MAX_PAIRS)) {
      const at = pair.indexOf("=");
      const [rawKey, rawValue] = at < 0 ? [pair, ""] : [pair.slice(0, at), pair.slice(at + 1)];
      try {
        values[decodeURIComponent(rawKey)] = decodeURIComponent(rawValue).slice(0, MAX_VALUE);
      } catch {
        continue; // a malformed escape: this pair only
      }
    }
    segments.push({ id: match[1], form: match[2] || NEUTRAL, values });
  }
  return segments;
}

/**
 * A state fragment ("" for none) from segments as `readLink` returns them.
 * @param {{id: string, form?: string, values: Object<string, string>}[]} segments
 */
export function writeLink(segments) {
  const texts = segments.map(({ id, form, values }) => {
    const pairs = Object.entries(values).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`);
    return `${id}${form && form !== NEUTRAL ? `~${form}` : ""}/${pairs.join(";")}`;
  });
  return texts.length ? `#${texts.join("&")}` : "";
}
