import { route } from "@/lib/http/respond";
import { inTransaction } from "@/lib/db/work";
import { spendingPolicy } from "@/lib/auth/authorize";
import { revertRun } from "@/lib/domain/history/index";
import { otherMethods } from "@/lib/http/methods";
import * as api from "@/lib/http/schemas/history";

export const POST = route(api.revertRun, async ({ params, body, rt, auth }) =>
  inTransaction(rt, (w) =>
    revertRun(
      w,
      auth.workspaceId,
      params.runId,
      { dryRun: body?.dryRun ?? false },
      spendingPolicy(rt.config.runs, auth),
    ),
  ),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
