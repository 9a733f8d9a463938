import { route } from "@/lib/http/respond";
import { rowHistory } from "@/lib/domain/history/index";
import { otherMethods } from "@/lib/http/methods";
import * as api from "@/lib/http/schemas/history";

export const GET = route(api.rowHistory, async ({ params, query, rt, auth }) =>
  rowHistory(rt.db.prisma, auth.workspaceId, params.baseId, params.rowId, query),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
