import { createWriteStream } from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import busboy from "busboy";
import { appError } from "../errors.ts";

// An import's file, streamed from the request straight to disk: the body itself, or the
// multipart field `file`. It is never held in memory, and stops at maxBytes.

export interface ReceivedFile {
  name: string;
  contentType: string;
  size: number;
}

/** Writes the request's file to `target` (via a .part file, renamed when complete). */
export async function receiveUpload(req: Request, target: string, maxBytes: number): Promise<ReceivedFile> {
  if (!req.body) throw appError("empty_file", "The request has no body: send the file as the body, or as the multipart field \"file\".");
  await mkdir(path.dirname(target), { recursive: true });
  const part = `${target}.part`;
  const type = req.headers.get("content-type") ?? "application/octet-stream";
  try {
    const received = /^multipart\/form-data/i.test(type) ? await receiveMultipart(req, type, part, maxBytes) : await receiveBody(req, type, part, maxBytes);
    if (received.size === 0) throw appError("empty_file", "The file is empty.");
    await rename(part, target);
    return received;
  } catch (e) {
    await rm(part, { force: true });
    throw e;
  }
}

const tooLarge = (maxBytes: number) => appError("file_too_large", `An import file is at most ${Math.round(maxBytes / 1024 / 1024)} MB (IMPORT_MAX_BYTES).`);

function counter(maxBytes: number) {
  let size = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (size > maxBytes) done(tooLarge(maxBytes));
      else done(null, chunk);
    },
  });
  return { stream, size: () => size };
}

async function receiveBody(req: Request, type: string, part: string, maxBytes: number): Promise<ReceivedFile> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw tooLarge(maxBytes);
  const count = counter(maxBytes);
  await pipeline(Readable.fromWeb(req.body as never), count.stream, createWriteStream(part));
  const name = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(req.headers.get("content-disposition") ?? "")?.[1];
  return { name: safeName(name ? decodeURIComponentSafe(name) : undefined), contentType: type.split(";")[0].trim().toLowerCase(), size: count.size() };
}

function receiveMultipart(req: Request, type: string, part: string, maxBytes: number): Promise<ReceivedFile> {
  return new Promise((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({ headers: { "content-type": type }, defParamCharset: "utf8", limits: { files: 1, fileSize: maxBytes, fields: 10 } });
    } catch {
      return reject(appError("validation_failed", "The multipart body has no boundary in its Content-Type."));
    }
    let found: Promise<ReceivedFile> | undefined;
    bb.on("file", (field, stream, info) => {
      if (field !== "file" || found) return void stream.resume();
      const count = counter(maxBytes);
      stream.on("limit", () => count.stream.destroy(tooLarge(maxBytes)));
      found = pipeline(stream, count.stream, createWriteStream(part)).then(() => ({
        name: safeName(info.filename),
        contentType: (info.mimeType || "application/octet-stream").toLowerCase(),
        size: count.size(),
      }));
      found.catch(() => stream.resume());
    });
    bb.on("error", () => reject(appError("validation_failed", "The multipart body is malformed.")));
    bb.on("close", () => (found ? found.then(resolve, reject) : reject(appError("validation_failed", 'No file field in the upload (use a field named "file").'))));
    Readable.fromWeb(req.body as never).on("error", reject).pipe(bb);
  });
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** A stored, displayable name: no control characters or unpaired surrogates, at most 200 characters. */
function safeName(name: string | undefined): string {
  const clean = (name ?? "").replace(/[\u0000-\u001f\u007f]/g, "").toWellFormed().trim().slice(0, 200);
  return clean || "upload";
}
