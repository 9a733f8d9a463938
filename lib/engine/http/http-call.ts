import { appError } from "../../errors.ts";
import type { ColumnRecord } from "../../domain/column-model.ts";
import { HTTP_LIMITS, type HttpCall } from "../../domain/fill/http-schema.ts";
import { compileFormula } from "../../domain/formulas/compile.ts";
import { cellValueOf } from "../../domain/formulas/cell-value.ts";
import type { HttpCache } from "./cache.ts";
import type { HostGate } from "./host-gate.ts";
import { sendRequest, type Answer, type SendOptions } from "./send.ts";
import { redactSecrets } from "../../secrets/index.ts";
import { resolveRequest } from "./template.ts";

// One HTTP call of a column (or of a waterfall's step) for one row: the request resolved, the
// answer taken from the cache or the provider, and read into the column's value, or a miss.
// A miss is an outcome, not an error: the provider answered that it has nothing for this row.

export interface HttpDeps {
  gate: HostGate;
  cache: HttpCache;
  fetch: SendOptions["fetch"];
}

export interface HttpCallSource {
  /** The URL, secret values replaced by their names. */
  url: string;
  status: number;
  latencyMs: number;
  cached: boolean;
  calls: number;
  credits: number;
}

export interface HttpCallResult {
  outcome: "found" | "not_found";
  /** The answer's text, secret values redacted (the column editor's preview shows it). */
  answer: string;
  /** The column's value; "" on a miss. */
  value: string;
  /** The answer's JSON, as the extraction read it (an HTTP column's outputs read it too); null on a miss by status. */
  data: unknown;
  credits: number;
  source: HttpCallSource;
}

export async function callHttp(
  call: HttpCall,
  column: Pick<ColumnRecord, "type" | "columnOptions">,
  values: Readonly<Record<string, string>>,
  secrets: ReadonlyMap<string, string>,
  deps: HttpDeps,
  signal?: AbortSignal,
): Promise<HttpCallResult> {
  const req = resolveRequest(call.request, values, secrets);
  const ttl = call.cacheTtlSeconds ?? HTTP_LIMITS.defaultCacheTtlSeconds;
  const hit = ttl > 0 ? await deps.cache.get(req.cacheKey) : undefined;
  let answer: Answer;
  if (hit) answer = { ...hit, latencyMs: 0, calls: 0 };
  else {
    answer = await sendRequest(req, {
      retries: call.retries ?? 2,
      timeoutMs: call.timeoutMs ?? HTTP_LIMITS.defaultTimeoutMs,
      perMinute: call.rateLimit?.perMinute ?? 600,
      concurrency: call.rateLimit?.concurrency ?? 10,
      gate: deps.gate,
      fetch: deps.fetch,
      signal,
    });
    // What a provider may echo back (a key in a URL it returns) is redacted before anything keeps it.
    answer.text = redactSecrets(answer.text, req.secretValues);
  }
  const host = new URL(req.url).host;
  const read = await readAnswer(call, column, answer, host);
  if (!hit && ttl > 0 && read.cacheable)
    await deps.cache.set(req.cacheKey, { status: answer.status, text: read.json }, ttl);
  const credits = hit ? 0 : read.outcome === "found" ? (call.credits?.found ?? 1) : (call.credits?.notFound ?? 0);
  return {
    outcome: read.outcome,
    answer: answer.text,
    data: read.data,
    value: read.value,
    credits,
    source: {
      url: req.safeUrl,
      status: answer.status,
      latencyMs: answer.latencyMs,
      cached: Boolean(hit),
      calls: answer.calls,
      credits,
    },
  };
}

async function readAnswer(
  call: HttpCall,
  column: Pick<ColumnRecord, "type" | "columnOptions">,
  answer: Answer,
  host: string,
) {
  const miss = { outcome: "not_found" as const, value: "" };
  if ((call.notFound?.statuses ?? [404]).includes(answer.status))
    return { ...miss, cacheable: true, json: "", data: null };
  if (answer.status >= 400) {
    throw appError("provider_refused", `${host} refused the request (HTTP ${answer.status}).`, {
      status: answer.status,
      retryable: false,
    });
  }
  let json: unknown = null;
  if (answer.text.trim() !== "") {
    try {
      json = JSON.parse(answer.text);
    } catch {
      throw appError("provider_invalid_answer", `${host} answered with something other than JSON.`, {
        retryable: false,
      });
    }
  }
  const text = json === null ? "" : JSON.stringify(json);
  if (call.notFound?.when && truthy(await evaluate(call.notFound.when, json, host))) {
    return { ...miss, cacheable: true, json: text, data: json };
  }
  const value = cellValueOf(await evaluate(call.extract, json, host), column);
  if (value === null) {
    throw appError("invalid_output", `The value read from ${host}'s answer does not fit a ${column.type} column.`, {
      retryable: false,
    });
  }
  if (value === "") {
    if (call.notFound?.whenEmpty === false) {
      throw appError("provider_invalid_answer", `${host}'s answer holds no value where the column reads one.`, {
        retryable: false,
      });
    }
    return { ...miss, cacheable: true, json: text, data: json };
  }
  return { outcome: "found" as const, value, cacheable: true, json: text, data: json };
}

async function evaluate(expression: string, json: unknown, host: string): Promise<unknown> {
  try {
    return await (await compileFormula(expression)).evaluate(json);
  } catch (e) {
    throw appError("provider_invalid_answer", `Reading ${host}'s answer failed: ${(e as Error).message ?? "error"}.`, {
      retryable: false,
    });
  }
}

const truthy = (v: unknown) => v !== undefined && v !== null && v !== false && v !== "" && v !== 0;
