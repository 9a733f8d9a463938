import { route } from "@/lib/http/respond";
import { evaluationView } from "@/lib/domain/evaluations/index";
import { otherMethods } from "@/lib/http/methods";
import * as api from "@/lib/http/schemas/quality";

export const GET = route(api.getEvaluation, async ({ params, rt, auth }) =>
  evaluationView(rt.db.prisma, auth.workspaceId, params.evaluationId, { results: true }),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
