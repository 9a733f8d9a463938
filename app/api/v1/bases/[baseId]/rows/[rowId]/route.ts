import { param, route } from "@/lib/http/respond";
import { booleanParam } from "@/lib/http/query";
import { getRow } from "@/lib/domain/rows-read";
import { otherMethods } from "@/lib/http/methods";

export const GET = route(async ({ req, params, rt, auth }) => {
  const expand = booleanParam(new URL(req.url), "expand");
  return getRow(rt.db.prisma, auth.workspaceId, param(params, "baseId"), param(params, "rowId"), expand);
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
