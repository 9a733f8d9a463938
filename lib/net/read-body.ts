import type { IncomingMessage } from "node:http";
import type { Readable } from "node:stream";
import zlib from "node:zlib";
import { appError } from "../errors.ts";

// Reads a response body, decompressing on the fly, and stops as soon as the *decoded* size
// passes the cap, so a few kilobytes of gzip cannot expand into gigabytes in memory.

export interface BodyLimits {
  maxBytes: number;
  /** When true, keep the first maxBytes and report truncation; otherwise throw. */
  truncate: boolean;
}

export interface ReadBody {
  body: Buffer;
  truncated: boolean;
}

export async function readBody(res: IncomingMessage, limits: BodyLimits): Promise<ReadBody> {
  const declared = Number(res.headers["content-length"]);
  const encoding = String(res.headers["content-encoding"] ?? "identity")
    .trim()
    .toLowerCase();
  if (!limits.truncate && encoding === "identity" && declared > limits.maxBytes) {
    res.destroy();
    throw tooLarge(limits.maxBytes);
  }

  let decoder: ReturnType<typeof decoderFor>;
  try {
    decoder = decoderFor(encoding);
  } catch (e) {
    // Refusing the encoding must also let go of the connection.
    res.destroy();
    throw e;
  }
  let stream: Readable = res;
  if (decoder) {
    // pipe() does not forward errors; forward them so the loop below sees a failed source.
    res.on("error", (e) => decoder.destroy(e));
    stream = res.pipe(decoder);
  }

  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (size + chunk.length > limits.maxBytes) {
        if (!limits.truncate) throw tooLarge(limits.maxBytes);
        chunks.push(chunk.subarray(0, limits.maxBytes - size));
        size = limits.maxBytes;
        truncated = true;
        break;
      }
      chunks.push(chunk);
      size += chunk.length;
    }
  } catch (e) {
    if (isZlibError(e)) throw appError("fetch_failed", "The response could not be decompressed.");
    throw e;
  } finally {
    // Leaving the loop early must also stop the download, not just the decoder.
    if (decoder && !decoder.destroyed) decoder.destroy();
    if (!res.destroyed) res.destroy();
  }
  const body = Buffer.concat(chunks, size);
  return { body: truncated ? body.subarray(0, wholeUtf8Length(body)) : body, truncated };
}

/**
 * The length of `b` without a UTF-8 character that the cut left incomplete at its end, so that a
 * truncated page does not end in U+FFFD. Other encodings lose at most three bytes of the cut.
 */
export function wholeUtf8Length(b: Buffer): number {
  for (let back = 1; back <= Math.min(4, b.length); back++) {
    const byte = b[b.length - back];
    if (byte < 0x80) return b.length;
    if (byte >= 0xc0) {
      const needs = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
      return needs > back ? b.length - back : b.length;
    }
  }
  return b.length;
}

function decoderFor(encoding: string) {
  switch (encoding) {
    case "identity":
    case "":
      return null;
    case "gzip":
    case "x-gzip":
      return zlib.createGunzip();
    case "deflate":
      // Raw (headerless) deflate under this name is rare enough to surface as a decoding error.
      return zlib.createInflate();
    case "br":
      return zlib.createBrotliDecompress();
    default:
      throw appError("fetch_failed", `Unsupported content encoding: ${encoding}.`);
  }
}

function isZlibError(e: unknown): boolean {
  // zlib reports Z_DATA_ERROR and friends; brotli reports ERR__ERROR_FORMAT_* codes.
  const code = (e as { code?: string } | null)?.code;
  return typeof code === "string" && (code.startsWith("Z_") || code.startsWith("ERR__"));
}

const tooLarge = (maxBytes: number) =>
  appError("payload_too_large", `The response is larger than ${maxBytes} bytes.`, { maxBytes });
