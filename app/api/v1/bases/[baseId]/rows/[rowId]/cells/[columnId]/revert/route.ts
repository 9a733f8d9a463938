import { route } from "@/lib/http/respond";
import { inTransaction } from "@/lib/db/work";
import { spendingPolicy } from "@/lib/auth/authorize";
import { revertCell } from "@/lib/domain/history/index";
import { otherMethods } from "@/lib/http/methods";
import * as api from "@/lib/http/schemas/history";

export const POST = route(api.revertCell, async ({ params, body, rt, auth }) =>
  inTransaction(rt, (w) =>
    revertCell(
      w,
      auth.workspaceId,
      params.baseId,
      { rowId: params.rowId, columnId: params.columnId, historyId: body.historyId },
      spendingPolicy(rt.config.runs, auth),
    ),
  ),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
