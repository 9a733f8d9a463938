import { route } from "@/lib/http/respond";
import { inTransaction } from "@/lib/db/work";
import { createEvaluation } from "@/lib/domain/evaluations/index";
import { evaluationPolicy } from "@/lib/engine/evaluation-policy";
import { otherMethods } from "@/lib/http/methods";
import * as api from "@/lib/http/schemas/quality";

export const POST = route(api.evaluateColumn, async ({ params, body, rt, auth }) =>
  inTransaction(rt, (w) =>
    createEvaluation(w, auth.workspaceId, params.baseId, params.columnId, body, {
      ...evaluationPolicy(rt.config),
      keyId: auth.keyId,
    }),
  ),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
