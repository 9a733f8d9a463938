import { route } from "@/lib/http/respond";
import { inTransaction } from "@/lib/db/work";
import { deleteColumn, updateColumn } from "@/lib/domain/columns/index";
import { otherMethods } from "@/lib/http/methods";
import { configuredProviders } from "@/lib/domain/model-spec";
import * as api from "@/lib/http/schemas/columns";

export const PATCH = route(api.updateColumn, async ({ params, body, rt, auth }) =>
  inTransaction(rt, (w) =>
    updateColumn(w, auth.workspaceId, params.baseId, params.columnId, body, configuredProviders(rt.config.ai)),
  ),
);

export const DELETE = route(api.deleteColumn, async ({ params, query, rt, auth }) =>
  inTransaction(rt, (w) => deleteColumn(w, auth.workspaceId, params.baseId, params.columnId, query.force)),
);

export const { GET, POST, PUT } = otherMethods("PATCH", "DELETE");
