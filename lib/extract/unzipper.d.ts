// The part of unzipper that xlsx-workbook.ts uses: reading an archive's central directory from
// any source of bytes by offset (the package ships no types).
declare module "unzipper/lib/Open/directory.js" {
  import type { Readable } from "node:stream";
  interface ByteSource {
    size(): Promise<number>;
    stream(offset: number, length?: number): Readable;
  }
  interface ZipEntry {
    path: string;
    /** As the central directory declares it. */
    compressedSize: number;
    stream(): Readable;
  }
  export default function directory(source: ByteSource): Promise<{ files: ZipEntry[] }>;
}
