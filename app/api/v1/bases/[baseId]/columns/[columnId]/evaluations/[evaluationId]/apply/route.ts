import { route } from "@/lib/http/respond";
import { inTransaction } from "@/lib/db/work";
import { applyEvaluation } from "@/lib/domain/evaluations/index";
import { configuredProviders } from "@/lib/domain/model-spec";
import { otherMethods } from "@/lib/http/methods";
import * as api from "@/lib/http/schemas/quality";

export const POST = route(api.applyEvaluation, async ({ params, rt, auth }) =>
  inTransaction(rt, (w) =>
    applyEvaluation(
      w,
      auth.workspaceId,
      params.baseId,
      params.columnId,
      params.evaluationId,
      configuredProviders(rt.config.ai),
    ),
  ),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
