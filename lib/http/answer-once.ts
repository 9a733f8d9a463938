import { appError } from "../errors.ts";
import type { Prisma } from "../db/database.ts";
import { secretFieldsOf, type Endpoint } from "./endpoint.ts";
import { claimKey, fingerprintOf, recordAnswer, type IdempotentRequest } from "./idempotency.ts";

// A POST with an Idempotency-Key runs at most once (idempotency.ts keeps the keys). A JSON
// request is claimed before it runs, by its parsed body. An upload cannot be: its bytes are known
// only once they are on disk, and two files of one length are not the same request. So its claim
// waits until receiveUpload (stream-upload.ts) has hashed the file, and is made then, before the
// handler writes anything: an upload's handler only reads (the base, a quota) before its file is in.

export interface KeyedRequest {
  req: Request;
  endpoint: Endpoint;
  workspaceId: string;
  key: string;
  /** The parsed body; undefined for an upload. */
  body: unknown;
}

/** What a file is known by in the fingerprint: what was sent, not where it was written. */
export interface UploadedFileIdentity {
  name: string;
  contentType: string;
  sha256: string;
}

interface PendingUpload {
  claim: (file: UploadedFileIdentity) => Promise<void>;
}

const pendingUploads = new WeakMap<Request, PendingUpload>();

/** Runs the request once per key: the stored answer is replayed, and the first one recorded. */
export async function answerOnce(prisma: Prisma, k: KeyedRequest, run: () => Promise<Response>): Promise<Response> {
  const base = { workspaceId: k.workspaceId, key: k.key, withhold: secretFieldsOf(k.endpoint) };
  if (k.endpoint.bodyType !== "upload" && k.endpoint.bodyType !== "multipart") {
    const claim: IdempotentRequest = { ...base, fingerprint: fingerprintOf(k.req, k.body) };
    return (await claimKey(prisma, claim)) ?? (await recordAnswer(prisma, claim, await run()));
  }
  let claimed: IdempotentRequest | undefined;
  let replay: Response | undefined;
  pendingUploads.set(k.req, {
    async claim(file) {
      const claim: IdempotentRequest = { ...base, fingerprint: fingerprintOf(k.req, { file }) };
      replay = await claimKey(prisma, claim);
      if (!replay) claimed = claim;
      // Stops the handler (its cleanup deletes the file); its answer is then put aside for the
      // replay. Were it ever sent, a 409 would only make the client retry, and be replayed.
      else
        throw appError("idempotency_in_progress", "This upload was answered before, under the same Idempotency-Key.");
    },
  });
  try {
    const res = await run();
    if (replay) {
      await res.body?.cancel();
      return replay;
    }
    // A request refused before its file was in (no such base, too large, empty) claimed nothing.
    return claimed ? await recordAnswer(prisma, claimed, res) : res;
  } finally {
    pendingUploads.delete(k.req);
  }
}

/** Called by receiveUpload once the file is whole: claims the request's key, if it has one. Throws 422, 409, or to replay. */
export async function claimUpload(req: Request, file: UploadedFileIdentity): Promise<void> {
  const pending = pendingUploads.get(req);
  if (!pending) return;
  pendingUploads.delete(req);
  await pending.claim({ name: file.name, contentType: file.contentType, sha256: file.sha256 });
}
