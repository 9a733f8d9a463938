import { route } from "@/lib/http/respond";
import { listRuns } from "@/lib/domain/runs/index";
import { otherMethods } from "@/lib/http/methods";
import * as api from "@/lib/http/schemas/runs";

export const GET = route(api.listRuns, async ({ params, query, rt, auth }) =>
  listRuns(rt.db.prisma, auth.workspaceId, params.baseId, { limit: query.limit ?? 20, cursor: query.cursor }),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
