import { appError } from "../errors.ts";
import { isZip, listZipEntries } from "./zip.ts";
import type { ContentKind } from "./types.ts";

// Decides what a body is from, in order: magic bytes (servers lie about types), the media
// type, then the file extension.

const BY_MEDIA_TYPE: Record<string, ContentKind> = {
  "text/html": "html",
  "application/xhtml+xml": "html",
  "application/pdf": "pdf",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "xlsx",
  "text/csv": "csv",
  "text/tab-separated-values": "csv",
  "text/markdown": "markdown",
  "text/x-markdown": "markdown",
  "application/json": "json",
  "text/plain": "text",
  "image/png": "image",
  "image/jpeg": "image",
  "image/gif": "image",
  "image/webp": "image",
};

const BY_EXTENSION: Record<string, ContentKind> = {
  html: "html",
  htm: "html",
  pdf: "pdf",
  docx: "docx",
  xlsx: "xlsx",
  csv: "csv",
  tsv: "csv",
  md: "markdown",
  markdown: "markdown",
  json: "json",
  txt: "text",
  text: "text",
  log: "text",
  png: "image",
  jpg: "image",
  jpeg: "image",
  gif: "image",
  webp: "image",
};

export interface Detected {
  kind: ContentKind;
  /** The media type to report for images (from magic bytes when known). */
  mediaType: string;
}

export function detectKind(bytes: Buffer, contentType: string, name = ""): Detected {
  const declared = contentType.split(";")[0].trim().toLowerCase();
  const magic = sniff(bytes);
  if (magic) return magic;

  const generic = declared === "" || declared === "application/octet-stream";
  if (generic && /^\s*(<!doctype html|<html[\s>]|<head[\s>])/i.test(bytes.subarray(0, 512).toString("latin1"))) {
    return { kind: "html", mediaType: "text/html" };
  }
  const fromType = BY_MEDIA_TYPE[declared] ?? (declared.endsWith("+json") ? "json" : undefined);
  const ext = name
    .split(/[?#]/, 1)[0]
    .match(/\.([a-z0-9]+)$/i)?.[1]
    ?.toLowerCase();
  const fromExt = ext ? BY_EXTENSION[ext] : undefined;
  // A binary kind declared without matching magic bytes is damaged, not something else.
  const kind = fromType ?? fromExt ?? (declared.startsWith("text/") ? "text" : undefined);
  if (kind === "pdf" || kind === "docx" || kind === "xlsx" || kind === "image") {
    throw appError("corrupt_file", `The file claims to be ${kind.toUpperCase()} but is not.`);
  }
  if (kind) return { kind, mediaType: declared || "text/plain" };
  if (looksLikeText(bytes)) return { kind: "text", mediaType: "text/plain" };
  throw appError("unsupported_file", `Files of type ${declared || ext || "unknown"} are not supported.`);
}

const BY_KIND_TYPE = {
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
};

function sniff(b: Buffer): Detected | null {
  if (b.subarray(0, 5).toString("latin1") === "%PDF-") return { kind: "pdf", mediaType: "application/pdf" };
  if (b[0] === 0x89 && b.subarray(1, 4).toString("latin1") === "PNG") return { kind: "image", mediaType: "image/png" };
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return { kind: "image", mediaType: "image/jpeg" };
  if (b.subarray(0, 4).toString("latin1") === "GIF8") return { kind: "image", mediaType: "image/gif" };
  if (b.subarray(0, 4).toString("latin1") === "RIFF" && b.subarray(8, 12).toString("latin1") === "WEBP") {
    return { kind: "image", mediaType: "image/webp" };
  }
  // Encrypted Office documents (and legacy .doc/.xls) are OLE compound files, not ZIPs.
  if (b.length >= 8 && b.readUInt32BE(0) === 0xd0cf11e0 && b.readUInt32BE(4) === 0xa1b11ae1) {
    throw appError("corrupt_file", "The document is encrypted or in a legacy Office format (.doc/.xls).");
  }
  if (isZip(b)) {
    const names = listZipEntries(b).map((e) => e.name);
    if (names.includes("word/document.xml")) return { kind: "docx", mediaType: BY_KIND_TYPE.docx };
    if (names.includes("xl/workbook.xml")) return { kind: "xlsx", mediaType: BY_KIND_TYPE.xlsx };
    throw appError("unsupported_file", "ZIP archives other than DOCX and XLSX are not supported.");
  }
  return null;
}

// No NUL bytes and few control characters in the first 4 KB: good enough for "is it text".
function looksLikeText(b: Buffer): boolean {
  const head = b.subarray(0, 4096);
  let odd = 0;
  for (const byte of head) {
    if (byte === 0) return false;
    if (byte < 9 || (byte > 13 && byte < 32)) odd++;
  }
  return odd <= head.length * 0.02;
}
