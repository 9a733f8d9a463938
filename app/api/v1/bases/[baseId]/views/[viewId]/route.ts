import { route } from "@/lib/http/respond";
import { deleteView, getView, updateView } from "@/lib/domain/views/index";
import { otherMethods } from "@/lib/http/methods";
import * as api from "@/lib/http/schemas/views";

export const GET = route(api.getView, async ({ params, rt, auth }) =>
  getView(rt.db.prisma, auth.workspaceId, params.baseId, params.viewId),
);

export const PATCH = route(api.updateView, async ({ params, body, rt, auth, audit }) => {
  audit.before = { ...(await getView(rt.db.prisma, auth.workspaceId, params.baseId, params.viewId)) };
  return updateView(rt.db.prisma, auth.workspaceId, params.baseId, params.viewId, body);
});

export const DELETE = route(api.deleteView, async ({ params, rt, auth, audit }) => {
  audit.before = { ...(await getView(rt.db.prisma, auth.workspaceId, params.baseId, params.viewId)) };
  return deleteView(rt.db.prisma, auth.workspaceId, params.baseId, params.viewId);
});

export const { POST, PUT } = otherMethods("GET", "PATCH", "DELETE");
