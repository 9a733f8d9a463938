import { route } from "@/lib/http/respond";
import { listCandidates } from "@/lib/domain/finds/index";
import { otherMethods } from "@/lib/http/methods";
import * as api from "@/lib/http/schemas/finds";

export const GET = route(api.listCandidates, async ({ params, query, rt, auth }) =>
  listCandidates(rt.db.prisma, auth.workspaceId, params.baseId, params.findId, {
    statuses: query.status
      ?.split(",")
      .map((s) => s.trim())
      .filter(Boolean),
    limit: query.limit ?? 50,
    cursor: query.cursor,
  }),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
