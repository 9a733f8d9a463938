import type { IncomingHttpHeaders } from "node:http";
import { appError, isAppError } from "../errors.ts";
import { vetUrl, type GuardOptions } from "./guard.ts";
import { sendHop } from "./hop.ts";
import { readBody } from "./read-body.ts";
import { trimChar } from "../text.ts";

// The outbound fetch for every user-influenced URL. Each hop (the first request and every
// redirect) is vetted and pinned separately; one deadline covers DNS, all hops and the body.

export interface SafeFetchOptions extends GuardOptions {
  maxBytes: number;
  timeoutMs: number;
  connectTimeoutMs: number;
  maxRedirects?: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  followRedirects?: boolean;
  /** Keep the first maxBytes of an oversized body instead of failing with payload_too_large. */
  truncate?: boolean;
  signal?: AbortSignal;
}

export interface SafeFetchResponse {
  status: number;
  headers: IncomingHttpHeaders;
  finalUrl: string;
  body: Buffer;
  /** Lower-cased media type without parameters, "" when the server sent none. */
  contentType: string;
  charset?: string;
  truncated?: boolean;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const DEFAULT_HEADERS = {
  "user-agent": "Cellwright/0.1 (+self-hosted enrichment)",
  accept: "*/*",
  "accept-encoding": "gzip, deflate, br",
};
// Credentials the caller meant for one origin must not follow a redirect to another.
const ORIGIN_BOUND_HEADERS = ["authorization", "cookie", "proxy-authorization"];

export async function safeFetch(url: string | URL, opts: SafeFetchOptions): Promise<SafeFetchResponse> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), opts.timeoutMs);
  const signal = opts.signal ? AbortSignal.any([deadline.signal, opts.signal]) : deadline.signal;
  try {
    return await fetchHops(url, opts, signal);
  } catch (e) {
    if (opts.signal?.aborted) throw opts.signal.reason;
    if (deadline.signal.aborted) {
      throw appError("timeout", `Fetching the URL took longer than ${opts.timeoutMs} ms.`, {
        url: String(url),
      });
    }
    if (isAppError(e)) throw e;
    throw appError("fetch_failed", describe(e), { url: String(url) });
  } finally {
    clearTimeout(timer);
  }
}

async function fetchHops(url: string | URL, opts: SafeFetchOptions, signal: AbortSignal) {
  const maxRedirects = opts.maxRedirects ?? 5;
  let method = (opts.method ?? "GET").toUpperCase();
  let body = opts.body === undefined ? undefined : Buffer.from(opts.body);
  let headers: Record<string, string> = { ...DEFAULT_HEADERS, ...lowerKeys(opts.headers ?? {}) };
  let current = String(url);

  for (let hop = 0; ; hop++) {
    const target = await abortable(
      vetUrl(current, {
        allowedPrivateHosts: opts.allowedPrivateHosts,
        allowedTargets: opts.allowedTargets,
        lookup: opts.lookup,
      }),
      signal,
    );
    const res = await sendHop({
      target,
      method,
      headers,
      body,
      connectTimeoutMs: opts.connectTimeoutMs,
      signal,
    });
    const status = res.statusCode ?? 0;
    const location = res.headers.location;

    if (REDIRECTS.has(status) && location && opts.followRedirects !== false) {
      res.destroy();
      if (hop >= maxRedirects) {
        throw appError("fetch_failed", `Too many redirects (more than ${maxRedirects}).`, { url: current });
      }
      const next = new URL(location, target.url);
      if (next.origin !== target.url.origin) headers = withoutKeys(headers, ORIGIN_BOUND_HEADERS);
      // Browsers turn POST into GET on 301/302 as well as 303; servers rely on it.
      if (status === 303 || ((status === 301 || status === 302) && method === "POST")) {
        if (method !== "HEAD") method = "GET";
        body = undefined;
        headers = withoutKeys(headers, ["content-type"]);
      }
      current = next.href;
      continue;
    }

    const read = await readBody(res, { maxBytes: opts.maxBytes, truncate: opts.truncate === true });
    const { mediaType, charset } = parseContentType(res.headers["content-type"]);
    return {
      status,
      headers: res.headers,
      finalUrl: target.url.href,
      body: read.body,
      contentType: mediaType,
      ...(charset ? { charset } : {}),
      ...(read.truncated ? { truncated: true } : {}),
    } satisfies SafeFetchResponse;
  }
}

export function parseContentType(header: string | undefined): { mediaType: string; charset?: string } {
  if (!header) return { mediaType: "" };
  const [type, ...params] = header.split(";");
  const charset = params
    .map((p) => {
      const [name, ...rest] = p.split("=");
      return name.trim().toLowerCase() === "charset" ? trimChar(rest.join("=").trim(), '"') || undefined : undefined;
    })
    .find((c) => c !== undefined);
  return { mediaType: type.trim().toLowerCase(), ...(charset ? { charset: charset.toLowerCase() } : {}) };
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

function lowerKeys(h: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));
}

function withoutKeys(h: Record<string, string>, keys: string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(h).filter(([k]) => !keys.includes(k)));
}

/** What a cell may show: the system's error code, never the raw message (it can carry internals). */
function describe(e: unknown): string {
  const code = (e as { code?: string } | null)?.code;
  return `The URL could not be fetched${typeof code === "string" && /^[A-Z_]+$/.test(code) ? ` (${code})` : ""}.`;
}
