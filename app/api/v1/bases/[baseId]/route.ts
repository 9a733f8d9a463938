import { param, route } from "@/lib/http/respond";
import { readBody } from "@/lib/http/body";
import { inTransaction } from "@/lib/db/work";
import { deleteBase, getBaseSummary, updateBase, updateBaseSchema } from "@/lib/domain/bases";
import { otherMethods } from "@/lib/http/methods";

export const GET = route(async ({ params, rt, auth }) => getBaseSummary(rt.db.prisma, auth.workspaceId, param(params, "baseId")));

export const PATCH = route(async ({ req, params, rt, auth }) => {
  const body = await readBody(req, updateBaseSchema);
  return inTransaction(rt, (w) => updateBase(w, auth.workspaceId, param(params, "baseId"), body));
});

export const DELETE = route(async ({ params, rt, auth }) =>
  inTransaction(rt, (w) => deleteBase(w, auth.workspaceId, param(params, "baseId"))),
);

export const { POST, PUT } = otherMethods("GET", "PATCH", "DELETE");
