import { AppError, appError, isAppError } from "../errors.ts";
import { getRuntime, type Runtime } from "../runtime.ts";
import { authenticate, type Principal } from "../auth/authenticate.ts";

export type RouteParams = Record<string, string | string[] | undefined>;

export interface RouteContext<P extends RouteParams = RouteParams> {
  req: Request;
  params: P;
  rt: Runtime;
  auth: Principal;
}

/** A handler returns data (sent as JSON 200), a Response (sent as is), or throws an AppError. */
type Handler<P extends RouteParams> = (ctx: RouteContext<P>) => Promise<unknown>;

interface RouteOptions {
  status?: number;
  /** Routes such as sign-in authenticate themselves. */
  public?: boolean;
}

export function json(data: unknown, status = 200, headers?: HeadersInit): Response {
  return new Response(JSON.stringify(data), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}

export function errorResponse(e: unknown): Response {
  const err = isAppError(e) ? e : toAppError(e);
  const headers: Record<string, string> = {};
  const retryAfter = (err.details as { retryAfterSeconds?: number } | undefined)?.retryAfterSeconds;
  if (retryAfter) headers["retry-after"] = String(retryAfter);
  return json({ error: err.toJSON() }, err.status, headers);
}

function toAppError(e: unknown): AppError {
  // Never leak internals: log the cause, answer with the catalog's generic message.
  console.error("[cellwright] unhandled error:", e);
  return appError("internal_error");
}

/**
 * Wraps a Next.js route handler: authenticate, run the domain call, answer. The one place that
 * turns results and errors into HTTP.
 */
export function route<P extends RouteParams = RouteParams>(handler: Handler<P>, options: RouteOptions = {}) {
  return async (req: Request, context?: { params?: Promise<P> | P }): Promise<Response> => {
    try {
      const rt = await getRuntime();
      const auth = options.public ? ANONYMOUS : await authenticate(rt, req);
      const params = ((await context?.params) ?? {}) as P;
      const result = await handler({ req, params, rt, auth });
      if (result instanceof Response) return result;
      return json(result, options.status ?? 200);
    } catch (e) {
      return errorResponse(e);
    }
  };
}

const ANONYMOUS: Principal = { workspaceId: "", keyId: "" };

/** Reads a path parameter that Next.js hands over as a string. */
export function param(params: RouteParams, name: string): string {
  const v = params[name];
  if (typeof v !== "string" || v === "") throw appError("not_found");
  return v;
}
