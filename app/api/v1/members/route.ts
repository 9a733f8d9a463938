import { route } from "@/lib/http/respond";
import { otherMethods } from "@/lib/http/methods";
import { listMembers } from "@/lib/auth/members";
import * as api from "@/lib/http/schemas/members";

export const GET = route(api.listMembers, async ({ rt, auth }) => ({
  members: await listMembers(rt.db.prisma, auth.workspaceId),
}));

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
