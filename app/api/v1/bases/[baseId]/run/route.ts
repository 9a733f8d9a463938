import { param, route } from "@/lib/http/respond";
import { readOptionalBody } from "@/lib/http/body";
import { inTransaction } from "@/lib/db/work";
import { runCells, runRequestSchema } from "@/lib/engine/run-request";
import { otherMethods } from "@/lib/http/methods";

export const POST = route(async ({ req, params, rt, auth }) => {
  const body = await readOptionalBody(req, runRequestSchema);
  return inTransaction(rt, (w) => runCells(w, auth.workspaceId, param(params, "baseId"), body));
}, { status: 202 });

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
