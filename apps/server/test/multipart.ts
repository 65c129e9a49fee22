/** A multipart/form-data body for `inject` (uploads): files and plain fields, in order. */
export function multipartBody(parts: readonly ({ field: string; fileName: string; content: Buffer; type?: string } | { field: string; value: string })[]) {
  const boundary = `----bo-test-${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if ('content' in p) {
      chunks.push(Buffer.from(`Content-Disposition: form-data; name="${p.field}"; filename="${p.fileName}"\r\nContent-Type: ${p.type ?? 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'}\r\n\r\n`));
      chunks.push(p.content, Buffer.from('\r\n'));
    } else chunks.push(Buffer.from(`Content-Disposition: form-data; name="${p.field}"\r\n\r\n${p.value}\r\n`));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
