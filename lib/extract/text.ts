// Decodes bytes to a string, honouring a byte-order mark, then the declared charset, then
// (for HTML) a <meta charset> in the first kilobyte. Unknown labels fall back to UTF-8.

export function decodeText(bytes: Buffer, charset?: string, sniffHtml = false): string {
  const bom = bomCharset(bytes);
  const label = bom ?? charset ?? (sniffHtml ? metaCharset(bytes) : undefined) ?? "utf-8";
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(label);
  } catch {
    decoder = new TextDecoder("utf-8");
  }
  // TextDecoder strips a matching BOM itself.
  return decoder.decode(bytes);
}

function bomCharset(b: Buffer): string | undefined {
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return "utf-8";
  if (b[0] === 0xff && b[1] === 0xfe) return "utf-16le";
  if (b[0] === 0xfe && b[1] === 0xff) return "utf-16be";
  return undefined;
}

function metaCharset(b: Buffer): string | undefined {
  const head = b.subarray(0, 1024).toString("latin1").toLowerCase();
  // Each <meta …> tag on its own, so that no pattern runs over the whole head.
  for (let at = head.indexOf("<meta"); at !== -1; at = head.indexOf("<meta", at + 5)) {
    const end = head.indexOf(">", at);
    const tag = head.slice(at, end === -1 ? undefined : end);
    const i = tag.indexOf("charset");
    if (i === -1) continue;
    const value = /^\s*=\s*["']?([\w-]+)/.exec(tag.slice(i + 7))?.[1];
    if (value) return value;
  }
  return undefined;
}
