/** The Content-Disposition of a download (exports, release files): one spelling for every file the server sends. */
/**
 * `attachment` with an ASCII fallback name (no quotes, backslashes or control characters) and the
 * exact name in RFC 5987 form, which browsers prefer.
 */
export function contentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\/]/g, '_').trim() || 'export';
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
