import { route } from "@/lib/http/respond";
import { inTransaction } from "@/lib/db/work";
import { createSchedule, listSchedules } from "@/lib/domain/schedules/index";
import { otherMethods } from "@/lib/http/methods";
import * as api from "@/lib/http/schemas/schedules";

export const GET = route(api.listSchedules, async ({ params, rt, auth }) =>
  listSchedules(rt.db.prisma, auth.workspaceId, params.baseId),
);

export const POST = route(api.createSchedule, async ({ params, body, rt, auth }) =>
  inTransaction(rt, (w) => createSchedule(w, auth.workspaceId, params.baseId, body, new Date())),
);

export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
