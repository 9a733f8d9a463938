import { route } from "@/lib/http/respond";
import { estimateEvaluation } from "@/lib/domain/evaluations/index";
import { evaluationPolicy } from "@/lib/engine/evaluation-policy";
import { otherMethods } from "@/lib/http/methods";
import * as api from "@/lib/http/schemas/quality";

export const POST = route(api.estimateEvaluation, async ({ params, body, rt, auth }) =>
  estimateEvaluation(rt.db.prisma, auth.workspaceId, params.baseId, params.columnId, body, evaluationPolicy(rt.config)),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
