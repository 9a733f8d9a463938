import zlib from "node:zlib";
import { appError } from "../errors.ts";

// Reads a ZIP's central directory without inflating anything. DOCX and XLSX are ZIPs, so this
// tells them apart, and lets us refuse encrypted entries and zip bombs (by declared size)
// before a parser inflates everything into memory.

export interface ZipEntry {
  name: string;
  compressedSize: number;
  uncompressedSize: number;
  encrypted: boolean;
  /** 0: stored, 8: deflate. */
  method: number;
  localHeaderOffset: number;
}

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;

const LOCAL_SIGNATURE = 0x04034b50;

export const isZip = (b: Buffer) => b.length >= 4 && b.readUInt32LE(0) === LOCAL_SIGNATURE;

/** Lists the entries; throws corrupt_file when the directory cannot be read. */
export function listZipEntries(b: Buffer): ZipEntry[] {
  // The end-of-central-directory record sits in the last 22 + up to 65535 (comment) bytes.
  let eocd = -1;
  if (b.length < 22) throw appError("corrupt_file", "The file is not a readable ZIP container.");
  for (let i = b.length - 22; i >= Math.max(0, b.length - 22 - 0xffff); i--) {
    if (b.readUInt32LE(i) === EOCD_SIGNATURE) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw appError("corrupt_file", "The file is not a readable ZIP container.");
  const count = b.readUInt16LE(eocd + 10);
  let offset = b.readUInt32LE(eocd + 16);

  const entries: ZipEntry[] = [];
  for (let n = 0; n < count; n++) {
    if (offset + 46 > b.length || b.readUInt32LE(offset) !== CENTRAL_SIGNATURE) {
      throw appError("corrupt_file", "The ZIP directory is damaged.");
    }
    const flags = b.readUInt16LE(offset + 8);
    const nameLen = b.readUInt16LE(offset + 28);
    const extraLen = b.readUInt16LE(offset + 30);
    const commentLen = b.readUInt16LE(offset + 32);
    entries.push({
      name: b.toString("utf8", offset + 46, offset + 46 + nameLen),
      compressedSize: b.readUInt32LE(offset + 20),
      // 0xffffffff means the real size is in a ZIP64 field: far beyond any sane document.
      uncompressedSize: b.readUInt32LE(offset + 24),
      encrypted: (flags & 1) === 1,
      method: b.readUInt16LE(offset + 10),
      localHeaderOffset: b.readUInt32LE(offset + 42),
    });
    offset += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

/**
 * Throws corrupt_file for encrypted entries and file_too_large past maxUnzippedBytes, by the
 * declared sizes first, then by inflating every entry and counting (output discarded): a zip
 * bomb may declare any size it likes.
 */
export async function assertZipWithinLimits(b: Buffer, maxUnzippedBytes: number): Promise<void> {
  const entries = listZipEntries(b);
  if (entries.some((e) => e.encrypted)) throw appError("corrupt_file", "The file is encrypted.");
  const tooLarge = () =>
    appError("file_too_large", `The file expands to more than ${Math.round(maxUnzippedBytes / 1_048_576)} MB.`);
  if (entries.reduce((n, e) => n + e.uncompressedSize, 0) > maxUnzippedBytes) throw tooLarge();
  let total = 0;
  for (const entry of entries) {
    total += await inflatedSize(b, entry, maxUnzippedBytes - total);
    if (total > maxUnzippedBytes) throw tooLarge();
  }
}

/** The real size of one entry, counted up to just past `budget`. */
async function inflatedSize(b: Buffer, entry: ZipEntry, budget: number): Promise<number> {
  const at = entry.localHeaderOffset;
  if (at + 30 > b.length || b.readUInt32LE(at) !== LOCAL_SIGNATURE)
    throw appError("corrupt_file", "The ZIP directory is damaged.");
  const start = at + 30 + b.readUInt16LE(at + 26) + b.readUInt16LE(at + 28);
  const data = b.subarray(start, start + entry.compressedSize);
  if (entry.method === 0) return data.length;
  if (entry.method !== 8) throw appError("corrupt_file", "The ZIP uses an unsupported compression method.");
  const inflate = zlib.createInflateRaw();
  let size = 0;
  return new Promise((resolve, reject) => {
    inflate.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > budget) {
        inflate.destroy();
        resolve(size);
      }
    });
    inflate.on("end", () => resolve(size));
    inflate.on("error", () => reject(appError("corrupt_file", "The ZIP data is damaged.")));
    inflate.end(data);
  });
}
