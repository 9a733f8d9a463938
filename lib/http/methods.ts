import { errorResponse } from "./respond.ts";
import { appError } from "../errors.ts";

const notAllowed = async () => errorResponse(appError("method_not_allowed"));

/** Handlers for the methods a route does not serve, so that they too answer in JSON. */
export function otherMethods(...served: string[]) {
  const all = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
  return Object.fromEntries(all.filter((m) => !served.includes(m)).map((m) => [m, notAllowed])) as Record<(typeof all)[number], typeof notAllowed>;
}
