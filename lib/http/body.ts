import { appError } from "../errors.ts";
import { assertStorableJson } from "./json-guard.ts";

const DEFAULT_MAX = 20 * 1024 * 1024;

/**
 * Reads a JSON body with the checks every endpoint needs: content type (415), size (413,
 * counted while reading so a lying Content-Length cannot get past it) and syntax (400).
 */
export async function readJson(req: Request, maxBytes = DEFAULT_MAX): Promise<unknown> {
  const type = req.headers.get("content-type") ?? "";
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(type.trim())) {
    throw appError("unsupported_media_type");
  }
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw tooLarge(maxBytes);
  const text = await readText(req, maxBytes);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw appError("invalid_json");
  }
  await assertStorableJson(value);
  return value;
}

async function readText(req: Request, maxBytes: number): Promise<string> {
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

const tooLarge = (maxBytes: number) =>
  appError("payload_too_large", `The request body is larger than ${Math.round(maxBytes / 1024 / 1024)} MB.`);

/**
 * For endpoints whose every field is optional (run, estimate, new API key, rotate-secret): a
 * request with no body and no content type means `{}`, so `curl -X POST` works. A body still has
 * to be JSON.
 */
export async function readOptionalJson(req: Request, maxBytes = DEFAULT_MAX): Promise<unknown> {
  if (req.headers.get("content-type")) return readJson(req, maxBytes);
  const text = await readText(req, 1).catch(() => undefined);
  if (text !== "") throw appError("unsupported_media_type");
  return {};
}
