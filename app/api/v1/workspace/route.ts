import { route } from "@/lib/http/respond";
import { getWorkspaceSettings, updateWorkspaceSettings } from "@/lib/workspaces";
import { otherMethods } from "@/lib/http/methods";
import * as api from "@/lib/http/schemas/audit";

export const GET = route(api.getWorkspace, async ({ rt, auth }) =>
  getWorkspaceSettings(rt.db.prisma, auth.workspaceId),
);

export const PATCH = route(api.updateWorkspace, async ({ body, rt, auth, audit }) => {
  audit.before = { ...(await getWorkspaceSettings(rt.db.prisma, auth.workspaceId)) };
  return updateWorkspaceSettings(rt.db.prisma, auth.workspaceId, body);
});

export const { POST, PUT, DELETE } = otherMethods("GET", "PATCH");
