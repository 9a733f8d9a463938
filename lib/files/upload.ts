import { Readable } from "node:stream";
import busboy from "busboy";
import type { Runtime } from "../runtime.ts";
import { appError } from "../errors.ts";
import { loadBase } from "../domain/bases.ts";
import { detectKind, extractContent } from "../extract/index.ts";
import { extractLimitsFrom, toolLimitsFromConfig } from "../tools/index.ts";
import { saveFile, type StoredFileView } from "./file-store.ts";

interface UploadedPart {
  name: string;
  contentType: string;
  bytes: Buffer;
}

/** Streams one multipart file field, stopping at maxBytes so an oversized upload is never held whole. */
function readMultipartFile(req: Request, maxBytes: number): Promise<UploadedPart> {
  const type = req.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data/i.test(type) || !req.body) {
    return Promise.reject(appError("unsupported_media_type", "Upload a file as multipart/form-data with a field named \"file\"."));
  }
  return new Promise((resolve, reject) => {
    let found: Promise<UploadedPart> | undefined;
    const bb = busboy({ headers: { "content-type": type }, limits: { files: 1, fileSize: maxBytes, fields: 10 } });
    bb.on("file", (_field, stream, info) => {
      found = new Promise((res, rej) => {
        const chunks: Buffer[] = [];
        stream.on("data", (c: Buffer) => chunks.push(c));
        stream.on("limit", () => rej(appError("file_too_large", `A file is at most ${Math.round(maxBytes / 1024 / 1024)} MB.`)));
        stream.on("end", () => res({ name: info.filename || "upload", contentType: info.mimeType || "application/octet-stream", bytes: Buffer.concat(chunks) }));
        stream.on("error", rej);
      });
      found.catch(() => stream.resume());
    });
    bb.on("error", () => reject(appError("validation_failed", "The multipart body is malformed.")));
    bb.on("close", () => (found ? found.then(resolve, reject) : reject(appError("validation_failed", 'No file field in the upload (use a field named "file").'))));
    Readable.fromWeb(req.body as never).on("error", reject).pipe(bb);
  });
}

/**
 * Stores an uploaded file for a base. It is extracted once on the way in, so an empty, encrypted,
 * corrupt or unsupported file is refused with a 4xx now rather than failing cells later.
 */
export async function uploadFile(rt: Runtime, workspaceId: string, baseId: string, req: Request): Promise<StoredFileView> {
  const base = await loadBase(rt.db.prisma, workspaceId, baseId);
  const part = await readMultipartFile(req, rt.config.files.maxBytes);
  if (part.bytes.length === 0) throw appError("empty_file", "The file is empty.");
  const detected = detectKind(part.bytes, part.contentType, part.name);
  // Images are kept for models that can see them; everything else must yield text.
  if (detected.kind !== "image") {
    await extractContent({ bytes: part.bytes, contentType: part.contentType, name: part.name }, extractLimitsFrom(toolLimitsFromConfig(rt.config)));
  }
  const contentType = part.contentType === "application/octet-stream" ? detected.mediaType : part.contentType;
  return saveFile(rt, { workspaceId, baseId: base.baseId }, { name: part.name.slice(0, 255), contentType, bytes: part.bytes });
}
