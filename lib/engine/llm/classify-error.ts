import {
  APICallError,
  EmptyResponseBodyError,
  InvalidResponseDataError,
  JSONParseError,
  LoadAPIKeyError,
  NoContentGeneratedError,
  TypeValidationError,
} from "@ai-sdk/provider";
import { isAppError, type ErrorCode } from "../../errors.ts";

// Maps anything a model call can throw to a catalog code and a retry decision. The engine owns
// retries (every AI SDK call runs with maxRetries: 0), so this is the one place that decides what
// is worth retrying and how long a provider asked us to wait.
//
// The engine classifies every failure, so this module is loaded at boot, while the AI SDK itself
// is loaded at the first model call: the errors the `ai` package defines are told by the marker
// the SDK gives each of its errors, across versions, not by importing their classes.

/** Whether `e` is the `ai` package's error of that name (AI_RetryError and so on). */
const isAiError = (e: unknown, name: string) =>
  typeof e === "object" &&
  e !== null &&
  (e as Record<symbol, unknown>)[Symbol.for(`vercel.ai.error.AI_${name}`)] === true;

export interface ErrorClass {
  code: ErrorCode;
  retryable: boolean;
  /** The provider's Retry-After (or retry-after-ms), when it sent one. */
  retryAfterMs?: number;
  /** Safe to store in a cell and show to users: no internals, no raw exception text. */
  message: string;
  /** The raw error, for the server log only. */
  detail?: string;
  /** HTTP status from the provider, when there was a response. */
  status?: number;
}

/** AppError codes worth another attempt when the error itself does not say otherwise. */
const RETRYABLE_CODES = new Set<ErrorCode>(["rate_limited", "timeout", "invalid_output", "ai_provider_error"]);

const NETWORK_CODES =
  /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|UND_ERR_\w+)$/;

/** Parses Retry-After (delta seconds or an HTTP date) or retry-after-ms into milliseconds. */
export function parseRetryAfter(
  headers: Record<string, string | undefined> | undefined,
  now = Date.now(),
): number | undefined {
  if (!headers) return undefined;
  const get = (name: string) =>
    Object.entries(headers)
      .find(([k]) => k.toLowerCase() === name)?.[1]
      ?.trim();
  const ms = get("retry-after-ms");
  if (ms && Number.isFinite(Number(ms))) return Math.max(0, Math.round(Number(ms)));
  const value = get("retry-after");
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function networkCode(e: unknown, depth = 0): string | undefined {
  if (!e || typeof e !== "object" || depth > 4) return undefined;
  const code = (e as { code?: unknown }).code;
  if (typeof code === "string" && NETWORK_CODES.test(code)) return code;
  return networkCode((e as { cause?: unknown }).cause, depth + 1);
}

/** A provider's own explanation of a refusal, as one short line. */
const clip = (text: string) =>
  text
    .replace(/[\u0000-\u001f\u007f]+/g, " ")
    .trim()
    .slice(0, 300);

function fromApiCall(e: APICallError): ErrorClass {
  const status = e.statusCode;
  const retryAfterMs = parseRetryAfter(e.responseHeaders);
  const base = { status, detail: e.message, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
  if (status === undefined)
    return {
      code: "ai_provider_error",
      retryable: true,
      message: "Could not reach the AI provider.",
      detail: e.message,
    };
  if (status === 429)
    return {
      code: "rate_limited",
      retryable: true,
      message: "The AI provider is rate limiting requests (429).",
      ...base,
    };
  if (status === 408 || status === 409 || status >= 500) {
    return { code: "ai_provider_error", retryable: true, message: `The AI provider failed (${status}).`, ...base };
  }
  if (status === 401 || status === 403) {
    return {
      code: "ai_provider_error",
      retryable: false,
      message: `The AI provider rejected the credentials (${status}); check its API key.`,
      status,
      detail: e.message,
    };
  }
  // The provider's reason is what the user needs to fix the column ("context length exceeded").
  return {
    code: "ai_provider_error",
    retryable: false,
    message: `The AI provider refused the request (${status}): ${clip(e.message)}`,
    status,
    detail: e.message,
  };
}

export function classifyError(e: unknown): ErrorClass {
  if (isAppError(e)) {
    const details = (e.details ?? {}) as { retryable?: unknown; retryAfterMs?: unknown };
    return {
      code: e.code,
      retryable: typeof details.retryable === "boolean" ? details.retryable : RETRYABLE_CODES.has(e.code),
      ...(typeof details.retryAfterMs === "number" ? { retryAfterMs: details.retryAfterMs } : {}),
      message: e.message,
    };
  }
  if (isAiError(e, "RetryError")) return classifyError((e as { lastError?: unknown }).lastError);
  if (APICallError.isInstance(e)) return fromApiCall(e);
  const name = e instanceof Error || e instanceof DOMException ? e.name : "";
  if (name === "TimeoutError")
    return { code: "timeout", retryable: true, message: "The AI provider did not answer in time." };
  // The caller cancelled (shutdown, a newer generation of the cell): nothing to retry.
  if (name === "AbortError") return { code: "timeout", retryable: false, message: "The model call was cancelled." };
  if (
    isAiError(e, "NoObjectGeneratedError") ||
    isAiError(e, "NoOutputGeneratedError") ||
    JSONParseError.isInstance(e) ||
    TypeValidationError.isInstance(e) ||
    NoContentGeneratedError.isInstance(e) ||
    // The model misused tools: called one that does not exist, with bad input, or ignored a forced choice.
    isAiError(e, "ToolChoiceViolationError") ||
    isAiError(e, "NoSuchToolError") ||
    isAiError(e, "InvalidToolInputError")
  ) {
    return {
      code: "invalid_output",
      retryable: true,
      message: "The model's answer was not usable.",
      detail: (e as Error).message,
    };
  }
  if (InvalidResponseDataError.isInstance(e) || EmptyResponseBodyError.isInstance(e)) {
    return {
      code: "ai_provider_error",
      retryable: true,
      message: "The AI provider sent an unusable response.",
      detail: (e as Error).message,
    };
  }
  if (LoadAPIKeyError.isInstance(e))
    return { code: "ai_not_configured", retryable: false, message: (e as Error).message };
  const net = networkCode(e);
  if (net) return { code: "ai_provider_error", retryable: true, message: `Could not reach the AI provider (${net}).` };
  return {
    code: "internal_error",
    retryable: false,
    message: "Something went wrong on our side.",
    detail: e instanceof Error ? (e.stack ?? e.message) : String(e),
  };
}
