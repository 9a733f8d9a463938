import { param, route } from "@/lib/http/respond";
import { readBody } from "@/lib/http/body";
import { booleanParam } from "@/lib/http/query";
import { inTransaction } from "@/lib/db/work";
import { deleteColumn, updateColumn } from "@/lib/domain/columns";
import { columnInputSchema } from "@/lib/domain/column-input";
import { otherMethods } from "@/lib/http/methods";

export const PATCH = route(async ({ req, params, rt, auth }) => {
  const body = await readBody(req, columnInputSchema);
  return inTransaction(rt, (w) => updateColumn(w, auth.workspaceId, param(params, "baseId"), param(params, "columnId"), body));
});

export const DELETE = route(async ({ req, params, rt, auth }) => {
  const force = booleanParam(new URL(req.url), "force");
  return inTransaction(rt, (w) => deleteColumn(w, auth.workspaceId, param(params, "baseId"), param(params, "columnId"), force));
});

export const { GET, POST, PUT } = otherMethods("PATCH", "DELETE");
