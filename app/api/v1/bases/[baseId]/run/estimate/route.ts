import { route } from "@/lib/http/respond";
import { estimateRun } from "@/lib/domain/runs/index";
import { otherMethods } from "@/lib/http/methods";
import * as api from "@/lib/http/schemas/run";

export const POST = route(api.estimateRun, async ({ params, body, rt, auth }) =>
  estimateRun(rt.db.prisma, auth.workspaceId, params.baseId, body, rt.config.credits.cellCost),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
