import { createHash } from "node:crypto";
import { appError } from "../errors.ts";
import type { Prisma } from "../db/database.ts";
import type { Endpoint } from "./endpoint.ts";

// Idempotency-Key on a POST, per the IETF draft and Stripe: the first answer is kept for 24 hours
// per workspace and key, and a retry with the same request replays it instead of doing the work
// again. Keys live in the database, so a retry on another worker, or after a restart, behaves
// the same. Owner of the idempotency_keys table.

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
// A request still "in flight" after this long died with its process: a retry may take it over.
const ABANDONED_AFTER_MS = 10 * 60 * 1000;
const PRUNE_EVERY_MS = 60 * 1000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
// Hop-by-hop and length headers belong to the first connection, not to the answer; a cookie is a secret.
const NOT_STORED = new Set([
  "connection",
  "keep-alive",
  "transfer-encoding",
  "content-length",
  "content-encoding",
  "set-cookie",
]);

export interface IdempotentRequest {
  workspaceId: string;
  key: string;
  fingerprint: string;
  /** The answer's fields that hold a secret (secretFieldsOf): stored, and replayed, as null. */
  withhold?: readonly string[];
}

/** The key of a POST that carries one, or undefined; a malformed key is a 400. */
export function idempotencyKeyOf(
  req: Request,
  endpoint: Endpoint | undefined,
  workspaceId: string,
): string | undefined {
  const key = req.headers.get("idempotency-key");
  if (key === null || req.method !== "POST" || !endpoint || !workspaceId) return undefined;
  if (!KEY_PATTERN.test(key)) {
    throw appError("validation_failed", "Idempotency-Key must be 1 to 255 visible ASCII characters.");
  }
  return key;
}

/**
 * What makes two requests "the same": method, path, query, what was asked for, and the body. An
 * upload's body is its file: name, type and the SHA-256 of its bytes, never the raw request, whose
 * multipart boundary changes on every retry (answer-once.ts).
 */
export function fingerprintOf(req: Request, body: unknown): string {
  const url = new URL(req.url);
  return createHash("sha256")
    .update(`${req.method} ${url.pathname}${url.search}\n${req.headers.get("accept") ?? ""}\n`)
    .update(canonicalJson(body))
    .digest("hex");
}

// Key order carries no meaning in JSON, so {"a":1,"b":2} and {"b":2,"a":1} are the same body.
function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(",")}]`;
  if (v && typeof v === "object") {
    const entries = Object.entries(v)
      .filter(([, x]) => x !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonicalJson(x)}`).join(",")}}`;
  }
  return JSON.stringify(v ?? null);
}

/**
 * Claims the key for this request. Returns the stored answer to replay, or undefined when this
 * request is the first (the caller runs it, then calls recordAnswer). Throws 422 when the key was
 * used for another request, and 409 while the first request is still running.
 */
export async function claimKey(prisma: Prisma, r: IdempotentRequest): Promise<Response | undefined> {
  await pruneExpired(prisma);
  for (let attempt = 0; attempt < 3; attempt++) {
    const now = Date.now();
    const inserted = await prisma.$executeRawUnsafe(
      `INSERT INTO idempotency_keys (workspace_id, key, fingerprint, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (workspace_id, key) DO NOTHING`,
      r.workspaceId,
      r.key,
      r.fingerprint,
      new Date(now),
      new Date(now + IDEMPOTENCY_TTL_MS),
    );
    if (inserted === 1) return undefined;
    const found = await prisma.idempotencyKey.findUnique({
      where: { workspaceId_key: { workspaceId: r.workspaceId, key: r.key } },
    });
    if (!found) continue;
    if (found.expiresAt.getTime() <= now) {
      await prisma.idempotencyKey.deleteMany({
        where: { workspaceId: r.workspaceId, key: r.key, expiresAt: found.expiresAt },
      });
      continue;
    }
    if (found.fingerprint !== r.fingerprint) throw appError("idempotency_key_reused");
    if (found.statusCode === null) {
      if (now - found.createdAt.getTime() < ABANDONED_AFTER_MS) throw appError("idempotency_in_progress");
      // Taken over only if no other retry took it first (the WHERE on created_at).
      const taken = await prisma.idempotencyKey.updateMany({
        where: { workspaceId: r.workspaceId, key: r.key, createdAt: found.createdAt, statusCode: null },
        data: { createdAt: new Date(now), expiresAt: new Date(now + IDEMPOTENCY_TTL_MS) },
      });
      if (taken.count === 1) return undefined;
      throw appError("idempotency_in_progress");
    }
    const headers = new Headers(JSON.parse(found.headers ?? "{}") as Record<string, string>);
    headers.set("idempotency-replayed", "true");
    return new Response(found.body, { status: found.statusCode, headers });
  }
  throw appError("idempotency_in_progress");
}

/**
 * Stores the first answer and returns it. A server-side failure (5xx) or a rate limit (429) did
 * nothing a retry would repeat, so the key is released instead and the retry runs anew. An event
 * stream is recorded as it is sent, and stored when it ends.
 */
export async function recordAnswer(prisma: Prisma, r: IdempotentRequest, res: Response): Promise<Response> {
  if (res.status >= 500 || res.status === 429) {
    await release(prisma, r);
    return res;
  }
  const kept = Object.fromEntries([...res.headers.entries()].filter(([name]) => !NOT_STORED.has(name)));
  const store = (body: string, extra: Record<string, string> = {}) =>
    prisma.idempotencyKey.updateMany({
      where: { workspaceId: r.workspaceId, key: r.key, fingerprint: r.fingerprint },
      data: { statusCode: res.status, headers: JSON.stringify({ ...kept, ...extra }), body },
    });
  const withhold = r.withhold ?? [];
  if (!/text\/event-stream/i.test(res.headers.get("content-type") ?? "") || !res.body || withhold.length > 0) {
    const body = await res.text();
    const stored = withholdSecrets(body, withhold);
    // An answer that may hold a secret and cannot be read as an object is not stored at all.
    if (stored === undefined) await release(prisma, r);
    else await store(stored.body, stored.withheld.length ? { "idempotency-withheld": stored.withheld.join(", ") } : {});
    return new Response(body, { status: res.status, headers: res.headers });
  }
  const decoder = new TextDecoder();
  const reader = res.body.getReader();
  let recorded = "";
  const save = () =>
    store(recorded + decoder.decode()).then(
      () => undefined,
      (e) => console.error("[cellwright] idempotency record failed:", e),
    );
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) {
        await save();
        controller.close();
        return;
      }
      recorded += decoder.decode(value, { stream: true });
      controller.enqueue(value);
    },
    // A client that hangs up mid-stream does not undo what the request did: keep what was sent.
    async cancel(reason) {
      await save();
      await reader.cancel(reason);
    },
  });
  return new Response(body, { status: res.status, headers: res.headers });
}

/**
 * The answer as stored: each secret field present is null, and named in `withheld`. The first
 * answer showed the secret; the replay says it was withheld rather than minting another.
 */
export function withholdSecrets(
  body: string,
  fields: readonly string[],
): { body: string; withheld: string[] } | undefined {
  if (fields.length === 0) return { body, withheld: [] };
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) return undefined;
  const withheld = fields.filter((f) => Object.hasOwn(value, f));
  if (withheld.length === 0) return { body, withheld };
  return { body: JSON.stringify({ ...value, ...Object.fromEntries(withheld.map((f) => [f, null])) }), withheld };
}

async function release(prisma: Prisma, r: IdempotentRequest) {
  await prisma.idempotencyKey.deleteMany({ where: { workspaceId: r.workspaceId, key: r.key, statusCode: null } });
}

// Pruned lazily by the requests that use keys, at most once a minute per process.
let lastPrune = 0;
async function pruneExpired(prisma: Prisma) {
  const now = Date.now();
  if (now - lastPrune < PRUNE_EVERY_MS) return;
  lastPrune = now;
  await pruneIdempotencyKeys(prisma, new Date(now));
}

/** Deletes the keys older than 24 hours; returns how many. */
export async function pruneIdempotencyKeys(prisma: Prisma, now = new Date()): Promise<number> {
  return (await prisma.idempotencyKey.deleteMany({ where: { expiresAt: { lt: now } } })).count;
}
