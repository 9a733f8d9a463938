/** A file as a download: served as an attachment, never rendered inline as our origin. */
export function downloadResponse(file: { bytes: Uint8Array; contentType: string; filename: string }): Response {
  return new Response(new Uint8Array(file.bytes), {
    headers: {
      "content-type": file.contentType,
      "content-length": String(file.bytes.length),
      "content-disposition": `attachment; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
      "x-content-type-options": "nosniff",
      "cache-control": "private, no-store",
    },
  });
}
