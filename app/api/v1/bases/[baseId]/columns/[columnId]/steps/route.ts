import { route } from "@/lib/http/respond";
import { columnStepStats } from "@/lib/domain/fill/step-stats";
import { otherMethods } from "@/lib/http/methods";
import * as api from "@/lib/http/schemas/steps";

export const GET = route(api.columnSteps, async ({ params, rt, auth }) =>
  columnStepStats(rt.db.prisma, auth.workspaceId, params.baseId, params.columnId),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
