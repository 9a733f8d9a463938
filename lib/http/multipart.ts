import { Readable } from "node:stream";
import busboy from "busboy";
import { appError } from "../errors.ts";
import type { UploadedPart } from "../files/upload.ts";

/** Streams one multipart file field, stopping at maxBytes so an oversized upload is never held whole. */
export function readMultipartFile(req: Request, maxBytes: number): Promise<UploadedPart> {
  const type = req.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data/i.test(type) || !req.body) {
    return Promise.reject(appError("unsupported_media_type", "Upload a file as multipart/form-data with a field named \"file\"."));
  }
  return new Promise((resolve, reject) => {
    let found: Promise<UploadedPart> | undefined;
    let bb: busboy.Busboy;
    try {
      // Filenames in UTF-8, as browsers send them (busboy's default is latin1); RFC 5987
      // `filename*` is read as declared.
      bb = busboy({ headers: { "content-type": type }, defParamCharset: "utf8", limits: { files: 1, fileSize: maxBytes, fields: 10 } });
    } catch {
      return reject(appError("validation_failed", "The multipart body has no boundary in its Content-Type."));
    }
    bb.on("file", (_field, stream, info) => {
      found = new Promise((res, rej) => {
        const chunks: Buffer[] = [];
        stream.on("data", (c: Buffer) => chunks.push(c));
        stream.on("limit", () => rej(appError("file_too_large", `A file is at most ${Math.round(maxBytes / 1024 / 1024)} MB.`)));
        stream.on("end", () => res({ name: safeFilename(info.filename), contentType: info.mimeType || "application/octet-stream", bytes: Buffer.concat(chunks) }));
        stream.on("error", rej);
      });
      found.catch(() => stream.resume());
    });
    bb.on("error", () => reject(appError("validation_failed", "The multipart body is malformed.")));
    bb.on("close", () => (found ? found.then(resolve, reject) : reject(appError("validation_failed", 'No file field in the upload (use a field named "file").'))));
    Readable.fromWeb(req.body as never).on("error", reject).pipe(bb);
  });
}

/** A stored, displayable name: no control characters or unpaired surrogates, at most 200 characters. */
function safeFilename(name: string | undefined): string {
  const clean = (name ?? "").replace(/[\u0000-\u001f\u007f]/g, "").toWellFormed().trim().slice(0, 200);
  return clean || "upload";
}
