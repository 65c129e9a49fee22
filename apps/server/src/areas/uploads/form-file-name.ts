/**
 * A multipart part's file name as the file is named. The HTML standard has browsers write '"', CR and LF in a
 * file name as %22, %0D and %0A (https://html.spec.whatwg.org/multipart-form-data: Chromium and Firefox do),
 * and the multipart parser hands over the header's text: those three are read back here, and only they (any
 * other '%' is the name's own). A name that really holds "%22" cannot be told apart from an escaped '"': it
 * reads as '"', as every browser means it. The name is then kept as it is, markup and direction marks
 * included; it is only ever answered as JSON and shown as text (docs/IMPORTS.md "File names").
 */
export function formFileName(raw: string | undefined, fallback: string): string {
  const name = (raw ?? '').replace(/%(22|0D|0A)/gi, (_whole, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return name || fallback;
}

/** Bidirectional formatting characters: the marks, embeddings, overrides and isolates, and their ends. */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;

/**
 * Several file names as one text ('module.csv, cluster.csv, …': an upload of four files). A name holding
 * direction controls goes between FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE, which end whatever it left
 * open: a right-to-left override in one name shows inside that name instead of reversing the names after it.
 */
export function joinFileNames(names: readonly string[]): string {
  return names.map((name) => (BIDI_CONTROLS.test(name) ? `\u2068${name}\u2069` : name)).join(', ');
}
