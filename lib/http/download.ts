/** A file as a download: served as an attachment, never rendered inline as our origin. */
export function downloadResponse(file: { bytes: Uint8Array; contentType: string; filename: string }): Response {
  return new Response(new Uint8Array(file.bytes), {
    headers: {
      "content-type": file.contentType,
      "content-length": String(file.bytes.length),
      "content-disposition": attachmentDisposition(file.filename),
      "x-content-type-options": "nosniff",
      "cache-control": "private, no-store",
    },
  });
}

/**
 * Content-Disposition for an attachment: an ASCII fallback name, and the real one in RFC 5987's
 * filename* (UTF-8, percent-encoded), which every current browser prefers.
 */
export function attachmentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\%]/g, "_");
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
