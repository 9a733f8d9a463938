import { route } from "@/lib/http/respond";
import { listAuditEntries } from "@/lib/audit/index";
import { otherMethods } from "@/lib/http/methods";
import * as api from "@/lib/http/schemas/audit";

export const GET = route(api.listAudit, async ({ query, rt, auth }) =>
  listAuditEntries(rt.db.prisma, auth.workspaceId, query),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
