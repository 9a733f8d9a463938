import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import busboy from "busboy";
import { appError } from "../errors.ts";
import { claimUpload } from "./answer-once.ts";

// An uploaded file (an import's or a base's), streamed from the request straight to disk and
// hashed on the way: the body itself, or the multipart field `file`. It is never held in memory,
// so a large upload costs the event loop nothing, and it stops at the limit.

export interface ReceivedFile {
  name: string;
  contentType: string;
  size: number;
  sha256: string;
}

export interface UploadLimit {
  maxBytes: number;
  /** The setting that sets maxBytes, named in the error. */
  setting: string;
  /** Only a multipart body (field `file`) is taken, not the file as the body itself. */
  multipartOnly?: boolean;
}

/** Writes the request's file to `target` (via a .part file, renamed when complete). */
export async function receiveUpload(req: Request, target: string, limit: UploadLimit): Promise<ReceivedFile> {
  const type = req.headers.get("content-type") ?? "application/octet-stream";
  const multipart = /^multipart\/form-data/i.test(type);
  if (limit.multipartOnly && (!multipart || !req.body)) {
    throw appError("unsupported_media_type", 'Upload a file as multipart/form-data with a field named "file".');
  }
  if (!req.body)
    throw appError(
      "empty_file",
      'The request has no body: send the file as the body, or as the multipart field "file".',
    );
  await mkdir(path.dirname(target), { recursive: true });
  const part = `${target}.part`;
  try {
    const received = multipart
      ? await receiveMultipart(req, type, part, limit)
      : await receiveBody(req, type, part, limit);
    if (received.size === 0) throw appError("empty_file", "The file is empty.");
    // Its Idempotency-Key, if any, is claimed now that the bytes are known (answer-once.ts).
    await claimUpload(req, received);
    await rename(part, target);
    return received;
  } catch (e) {
    await rm(part, { force: true });
    throw e;
  }
}

const tooLarge = (limit: UploadLimit) =>
  appError("file_too_large", `A file is at most ${Math.round(limit.maxBytes / 1024 / 1024)} MB (${limit.setting}).`);

/** Counts and hashes the bytes passing through, and stops them past the limit. */
function meter(limit: UploadLimit) {
  let size = 0;
  const hash = createHash("sha256");
  const stream = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (size > limit.maxBytes) return done(tooLarge(limit));
      hash.update(chunk);
      done(null, chunk);
    },
  });
  return { stream, size: () => size, sha256: () => hash.digest("hex") };
}

async function receiveBody(req: Request, type: string, part: string, limit: UploadLimit): Promise<ReceivedFile> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > limit.maxBytes) throw tooLarge(limit);
  const m = meter(limit);
  await pipeline(Readable.fromWeb(req.body as never), m.stream, createWriteStream(part));
  const name = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(req.headers.get("content-disposition") ?? "")?.[1];
  return {
    name: safeName(name ? decodeURIComponentSafe(name) : undefined),
    contentType: type.split(";")[0].trim().toLowerCase(),
    size: m.size(),
    sha256: m.sha256(),
  };
}

function receiveMultipart(req: Request, type: string, part: string, limit: UploadLimit): Promise<ReceivedFile> {
  return new Promise((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      // Filenames in UTF-8, as browsers send them (busboy's default is latin1); RFC 5987
      // `filename*` is read as declared.
      bb = busboy({
        headers: { "content-type": type },
        defParamCharset: "utf8",
        limits: { files: 1, fileSize: limit.maxBytes, fields: 10 },
      });
    } catch {
      return reject(appError("validation_failed", "The multipart body has no boundary in its Content-Type."));
    }
    let found: Promise<ReceivedFile> | undefined;
    bb.on("file", (field, stream, info) => {
      if (field !== "file" || found) return void stream.resume();
      const m = meter(limit);
      stream.on("limit", () => m.stream.destroy(tooLarge(limit)));
      found = pipeline(stream, m.stream, createWriteStream(part)).then(() => ({
        name: safeName(info.filename),
        contentType: (info.mimeType || "application/octet-stream").toLowerCase(),
        size: m.size(),
        sha256: m.sha256(),
      }));
      // A refused file answers at once: busboy may never close once its file stream is destroyed.
      found.catch((e) => {
        stream.resume();
        reject(e);
      });
    });
    bb.on("error", () => reject(appError("validation_failed", "The multipart body is malformed.")));
    bb.on("close", () =>
      found
        ? found.then(resolve, reject)
        : reject(appError("validation_failed", 'No file field in the upload (use a field named "file").')),
    );
    Readable.fromWeb(req.body as never)
      .on("error", reject)
      .pipe(bb);
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
  const clean = (name ?? "")
    .replace(/[\u0000-\u001f\u007f]/g, "")
    .toWellFormed()
    .trim()
    .slice(0, 200);
  return clean || "upload";
}
