import { route } from "@/lib/http/respond";
import { getRun } from "@/lib/domain/runs/index";
import { otherMethods } from "@/lib/http/methods";
import * as api from "@/lib/http/schemas/runs";

export const GET = route(api.getRun, async ({ params, rt, auth }) =>
  getRun(rt.db.prisma, auth.workspaceId, params.runId),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
