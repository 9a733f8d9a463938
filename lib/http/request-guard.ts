import { ERROR_CATALOG, type ErrorCode } from "../errors.ts";

// Checks every /api request before the framework sees it: methods it would answer with a text
// 500, and paths it would redirect (a trailing slash, `//`, `..`) or decode into something else
// (`%00`, broken percent-encoding). Under /api every answer is JSON from the catalog, and a
// path is served only as it was sent.

const SERVED_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

export interface GuardAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The methods a concrete /api path serves (GET implies HEAD), or null for no such path. */
export type AllowedMethods = (pathname: string) => readonly string[] | null;

const answer = (code: ErrorCode, message: string, headers: Record<string, string> = {}): GuardAnswer => ({
  status: ERROR_CATALOG[code].status,
  headers: { "content-type": "application/json; charset=utf-8", ...headers },
  body: JSON.stringify({ error: { code, message } }),
});

const allowHeader = (methods: readonly string[]) =>
  [...methods, ...(methods.includes("GET") ? ["HEAD"] : []), "OPTIONS"].join(", ");

/** Why a raw path is not one we serve as sent, or null when it is canonical. */
function pathProblem(rawPath: string): ErrorCode | null {
  if (rawPath.length > 1 && rawPath.endsWith("/")) return "not_found";
  for (const segment of rawPath.split("/").slice(1)) {
    if (segment === "") return "not_found";
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return "invalid_path";
    }
    if (decoded === "." || decoded === ".." || decoded.includes("/") || /[\u0000-\u001f\u007f]/.test(decoded))
      return "not_found";
  }
  return null;
}

/**
 * The answer for a request the framework must not handle, or null to pass it on. `rawUrl` is
 * the request target exactly as received (path and query).
 */
export function guardApiRequest(method: string, rawUrl: string, allowed: AllowedMethods): GuardAnswer | null {
  const rawPath = rawUrl.split("?")[0];
  if (rawPath !== "/api" && !rawPath.startsWith("/api/")) return null;
  const problem = pathProblem(rawPath);
  if (problem)
    return answer(
      problem,
      problem === "invalid_path" ? "The path is not validly percent-encoded." : ERROR_CATALOG.not_found.message,
    );
  const methods = allowed(rawPath);
  if (!methods) return SERVED_METHODS.has(method) ? null : answer("not_found", ERROR_CATALOG.not_found.message);
  if (method === "OPTIONS") return { status: 204, headers: { allow: allowHeader(methods) }, body: "" };
  if (SERVED_METHODS.has(method)) return null;
  return answer("method_not_allowed", `This endpoint accepts ${methods.join(", ")}.`, { allow: allowHeader(methods) });
}
