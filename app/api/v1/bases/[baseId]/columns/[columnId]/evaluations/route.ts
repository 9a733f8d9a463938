import { route } from "@/lib/http/respond";
import { listEvaluations } from "@/lib/domain/evaluations/index";
import { otherMethods } from "@/lib/http/methods";
import * as api from "@/lib/http/schemas/quality";

export const GET = route(api.listEvaluations, async ({ params, query, rt, auth }) =>
  listEvaluations(rt.db.prisma, auth.workspaceId, params.baseId, params.columnId, query.limit ?? 20),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
