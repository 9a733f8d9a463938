import { route } from "@/lib/http/respond";
import { queryRows } from "@/lib/domain/rows/index";
import { otherMethods } from "@/lib/http/methods";
import * as api from "@/lib/http/schemas/rows";

export const POST = route(api.queryRows, async ({ params, body, rt, auth }) =>
  queryRows(rt.db.prisma, auth.workspaceId, params.baseId, body),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
