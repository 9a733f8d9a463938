import { route } from "@/lib/http/respond";
import { inTransaction } from "@/lib/db/work";
import { deleteSchedule, getSchedule, updateSchedule } from "@/lib/domain/schedules/index";
import { otherMethods } from "@/lib/http/methods";
import * as api from "@/lib/http/schemas/schedules";

export const GET = route(api.getSchedule, async ({ params, rt, auth }) =>
  getSchedule(rt.db.prisma, auth.workspaceId, params.baseId, params.scheduleId),
);

export const PATCH = route(api.updateSchedule, async ({ params, body, rt, auth, audit }) => {
  const now = new Date();
  audit.before = { ...(await getSchedule(rt.db.prisma, auth.workspaceId, params.baseId, params.scheduleId)) };
  return inTransaction(rt, (w) => updateSchedule(w, auth.workspaceId, params.baseId, params.scheduleId, body, now));
});

export const DELETE = route(api.deleteSchedule, async ({ params, rt, auth, audit }) => {
  audit.before = {
    ...(await getSchedule(rt.db.prisma, auth.workspaceId, params.baseId, params.scheduleId)),
  };
  return inTransaction(rt, (w) => deleteSchedule(w, auth.workspaceId, params.baseId, params.scheduleId));
});

export const { POST, PUT } = otherMethods("GET", "PATCH", "DELETE");
