import { appError } from "../errors.ts";

// Reads a ZIP's central directory without inflating anything. DOCX and XLSX are ZIPs, so this
// tells them apart, and lets us refuse encrypted entries and zip bombs (by declared size)
// before a parser inflates everything into memory.

export interface ZipEntry {
  name: string;
  compressedSize: number;
  uncompressedSize: number;
  encrypted: boolean;
}

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;

export const isZip = (b: Buffer) => b.length >= 4 && b.readUInt32LE(0) === 0x04034b50;

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
    });
    offset += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

/** Throws corrupt_file for encrypted entries and file_too_large past maxUnzippedBytes. */
export function assertZipWithinLimits(entries: ZipEntry[], maxUnzippedBytes: number): void {
  if (entries.some((e) => e.encrypted)) throw appError("corrupt_file", "The file is encrypted.");
  const total = entries.reduce((n, e) => n + e.uncompressedSize, 0);
  if (total > maxUnzippedBytes) {
    throw appError("file_too_large", `The file expands to more than ${maxUnzippedBytes} bytes.`);
  }
}
