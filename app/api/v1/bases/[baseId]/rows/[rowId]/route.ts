import { route } from "@/lib/http/respond";
import { getRow } from "@/lib/domain/rows/index";
import { otherMethods } from "@/lib/http/methods";
import * as api from "@/lib/http/schemas/rows";

export const GET = route(api.getRow, async ({ params, query, rt, auth }) =>
  getRow(rt.db.read, auth.workspaceId, params.baseId, params.rowId, query.expand),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
