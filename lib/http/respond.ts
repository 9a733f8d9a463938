import { type AppError, appError, isAppError } from "../errors.ts";
import { getRuntime, type Runtime } from "../runtime.ts";
import { authenticate, type Principal } from "../auth/authenticate.ts";
import type { BodyOf, Endpoint, ParamsOf, QueryOf } from "./endpoint.ts";
import { parseParams, parseQuery, readEndpointBody } from "./parse.ts";
import { idempotencyKeyOf } from "./idempotency.ts";
import { answerOnce } from "./answer-once.ts";
import { rateLimitHeaders } from "../auth/api-rate-limit.ts";
import { assertAllBases, assertBaseInScope, assertPermitted } from "../auth/authorize.ts";
import { assertReachable } from "../auth/reach.ts";
import type { AuditNote } from "../audit/index.ts";
import { auditSuccess } from "./audit-step.ts";
import { jsonInSlices } from "./json-slices.ts";

type RawParams = Record<string, string | string[] | undefined>;

export interface RouteContext {
  req: Request;
  rt: Runtime;
  auth: Principal;
  /** What the handler adds to the endpoint's audit entry: the state before a change, a summary. */
  audit: AuditNote;
}

/** What a handler of an endpoint receives: the request's params, query and body, parsed and typed. */
export interface EndpointContext<E> extends RouteContext {
  params: ParamsOf<E>;
  query: QueryOf<E>;
  body: BodyOf<E>;
}

/** A handler returns data (sent as JSON with the endpoint's status), a Response (sent as is), or throws an AppError. */
type Handler<C> = (ctx: C) => Promise<unknown>;
type NextHandler = ((req: Request, context?: { params?: Promise<RawParams> | RawParams }) => Promise<Response>) & {
  endpoint?: Endpoint;
};

interface RouteOptions {
  status?: number;
  /** Routes such as the health check authenticate themselves. */
  public?: boolean;
}

/** `data` as JSON; text already written (jsonInSlices) goes as it is. */
export function json(data: unknown, status = 200, headers?: HeadersInit, written = false): Response {
  return new Response(written ? (data as string) : JSON.stringify(data), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}

export function errorResponse(e: unknown): Response {
  const err = isAppError(e) ? e : toAppError(e);
  const headers: Record<string, string> = {};
  const details = err.details as { retryAfterSeconds?: number; limit?: number; burst?: number } | undefined;
  const retryAfter = details?.retryAfterSeconds;
  if (retryAfter) headers["retry-after"] = String(retryAfter);
  if (err.code === "rate_limited" && details?.limit && details.burst)
    Object.assign(headers, rateLimitHeaders({ perSecond: details.limit, burst: details.burst }, 0));
  return json({ error: err.toJSON() }, err.status, headers);
}

function toAppError(e: unknown): AppError {
  // Never leak internals: log the cause, answer with the catalog's generic message.
  console.error("[cellwright] unhandled error:", e);
  return appError("internal_error");
}

/**
 * Wraps a Next.js route handler: authenticate, parse the request with the endpoint's schemas,
 * run the domain call, answer. The one place that turns results and errors into HTTP.
 * Routes outside /api/v1 (the health check) have no endpoint schema and pass only the handler.
 */
export function route<E extends Endpoint>(endpoint: E, handler: Handler<EndpointContext<E>>): NextHandler;
export function route(handler: Handler<RouteContext>, options?: RouteOptions): NextHandler;
export function route(first: Endpoint | Handler<RouteContext>, second?: Handler<never> | RouteOptions): NextHandler {
  const endpoint = typeof first === "function" ? undefined : first;
  const handler = (typeof first === "function" ? first : second) as Handler<EndpointContext<Endpoint>>;
  const options: RouteOptions = endpoint ?? (typeof second === "object" ? second : {});
  const handle: NextHandler = async (req, context) => {
    try {
      const rt = await getRuntime();
      const auth = options.public ? ANONYMOUS : await authenticate(rt, req);
      // Before anything is parsed or read: a request over the key's limit costs nothing more.
      const rate = options.public ? undefined : await rt.apiLimiter.consume(auth.actorId);
      if (endpoint && !endpoint.public) {
        assertPermitted(auth, endpoint);
        assertAllBases(auth, endpoint);
      }
      let ctx: EndpointContext<Endpoint> = {
        req,
        rt,
        auth,
        audit: {},
        params: {},
        query: {},
        body: undefined,
      } as EndpointContext<Endpoint>;
      if (endpoint) {
        const params = parseParams(endpoint, (await context?.params) ?? {});
        assertBaseInScope(auth, (params as { baseId?: string }).baseId);
        await assertReachable(rt.db.prisma, auth, params as Record<string, unknown>);
        const query = parseQuery(endpoint, new URL(req.url));
        const body = await readEndpointBody(endpoint, req, rt.config.maxBodyBytes);
        ctx = { req, rt, auth, audit: {}, params, query, body } as EndpointContext<Endpoint>;
      }
      // A POST with an Idempotency-Key that passed validation runs at most once (answer-once.ts).
      const key = idempotencyKeyOf(req, endpoint, auth.workspaceId);
      // A replay of an answered Idempotency-Key does not run again, so it records nothing again.
      const after = endpoint?.audit ? (result: unknown) => auditSuccess(endpoint, ctx, result) : undefined;
      const run = () => answer(handler, ctx, options.status, after);
      const res =
        key === undefined || !endpoint
          ? await run()
          : await answerOnce(rt.db.prisma, { req, endpoint, workspaceId: auth.workspaceId, key, body: ctx.body }, run);
      return rate ? withRateHeaders(res, rt.apiLimiter.limit, rate.remaining) : res;
    } catch (e) {
      return errorResponse(e);
    }
  };
  // The endpoint travels with the handler, so a test can check each route serves its descriptor.
  return Object.assign(handle, { endpoint });
}

async function answer<C>(
  handler: Handler<C>,
  ctx: C,
  status = 200,
  after?: (result: unknown) => Promise<void>,
): Promise<Response> {
  try {
    const result = await handler(ctx);
    await after?.(result);
    return result instanceof Response ? result : json(await jsonInSlices(result), status, undefined, true);
  } catch (e) {
    return errorResponse(e);
  }
}

/** Tells a client how much of its limit is left, so it can pace itself before a 429. */
function withRateHeaders(res: Response, limit: { perSecond: number; burst: number }, remaining: number): Response {
  if (limit.perSecond <= 0) return res;
  try {
    for (const [name, value] of Object.entries(rateLimitHeaders(limit, remaining))) res.headers.set(name, value);
  } catch {
    // A response with immutable headers (none of ours today) goes out without them.
  }
  return res;
}

const ANONYMOUS: Principal = {
  workspaceId: "",
  keyId: null,
  userId: null,
  actorId: "",
  role: "viewer",
  permissions: new Set(),
  baseIds: null,
  dailyCreditCap: null,
};
