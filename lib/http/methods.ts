import { errorResponse } from "./respond.ts";
import { appError } from "../errors.ts";

const ALL = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof ALL)[number];
type NotAllowed = (() => Promise<Response>) & { notAllowed?: true };

/**
 * Handlers for the methods a route does not serve, so that they too answer in JSON (Next.js
 * would otherwise send an empty 405). Use: `export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST")`.
 */
export function otherMethods(...served: Method[]): Record<Method, NotAllowed> {
  const allow = [...served, ...(served.includes("GET") ? ["HEAD"] : []), "OPTIONS"].join(", ");
  const notAllowed: NotAllowed = Object.assign(
    async () => {
      const res = errorResponse(appError("method_not_allowed", `This endpoint accepts ${served.join(", ")}.`));
      res.headers.set("allow", allow);
      return res;
    },
    { notAllowed: true as const },
  );
  return Object.fromEntries(ALL.filter((m) => !served.includes(m)).map((m) => [m, notAllowed])) as Record<
    Method,
    NotAllowed
  >;
}
