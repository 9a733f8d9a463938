import { route } from "@/lib/http/respond";
import { inTransaction } from "@/lib/db/work";
import { triggerSchedule } from "@/lib/domain/schedules/index";
import { findPolicy } from "@/lib/engine/find/policy";
import { spendingPolicy } from "@/lib/auth/authorize";
import { otherMethods } from "@/lib/http/methods";
import * as api from "@/lib/http/schemas/schedules";

export const POST = route(api.triggerSchedule, async ({ params, rt, auth }) => {
  const run = spendingPolicy(rt.config.runs, auth);
  const policies = { run, find: findPolicy(rt.config, run) };
  return inTransaction(rt, (w) =>
    triggerSchedule(w, auth.workspaceId, params.baseId, params.scheduleId, new Date(), policies),
  );
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
