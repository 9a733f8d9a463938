import { route } from "@/lib/http/respond";
import { inTransaction } from "@/lib/db/work";
import { deleteBase, getBaseSummary, updateBase } from "@/lib/domain/bases";
import { otherMethods } from "@/lib/http/methods";
import * as api from "@/lib/http/schemas/bases";

export const GET = route(api.getBase, async ({ params, rt, auth }) =>
  getBaseSummary(rt.db.prisma, auth.workspaceId, params.baseId),
);

export const PATCH = route(api.updateBase, async ({ params, body, rt, auth, audit }) =>
  inTransaction(rt, async (w) => {
    audit.before = { ...(await getBaseSummary(w.tx, auth.workspaceId, params.baseId)) };
    return updateBase(w, auth.workspaceId, params.baseId, body);
  }),
);

export const DELETE = route(api.deleteBase, async ({ params, rt, auth, audit }) =>
  inTransaction(rt, async (w) => {
    audit.before = { ...(await getBaseSummary(w.tx, auth.workspaceId, params.baseId)) };
    return deleteBase(w, auth.workspaceId, params.baseId);
  }),
);

export const { POST, PUT } = otherMethods("GET", "PATCH", "DELETE");
