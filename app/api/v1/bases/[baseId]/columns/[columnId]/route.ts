import { route } from "@/lib/http/respond";
import { inTransaction } from "@/lib/db/work";
import { deleteColumn, updateColumn } from "@/lib/domain/columns/index";
import { getBaseStructure } from "@/lib/domain/bases";
import type { Tx } from "@/lib/db/database";
import { otherMethods } from "@/lib/http/methods";
import { configuredProviders } from "@/lib/domain/model-spec";
import * as api from "@/lib/http/schemas/columns";

// The column as it was, for the audit entry's before and after.
const columnBefore = async (tx: Tx, workspaceId: string, baseId: string, columnId: string) => {
  const column = (await getBaseStructure(tx, workspaceId, baseId)).sheetColumns.find((c) => c.id === columnId);
  return column ? { ...column } : undefined;
};

export const PATCH = route(api.updateColumn, async ({ params, body, rt, auth, audit }) =>
  inTransaction(rt, async (w) => {
    audit.before = await columnBefore(w.tx, auth.workspaceId, params.baseId, params.columnId);
    return updateColumn(w, auth.workspaceId, params.baseId, params.columnId, body, configuredProviders(rt.config.ai));
  }),
);

export const DELETE = route(api.deleteColumn, async ({ params, query, rt, auth, audit }) =>
  inTransaction(rt, async (w) => {
    audit.before = await columnBefore(w.tx, auth.workspaceId, params.baseId, params.columnId);
    return deleteColumn(w, auth.workspaceId, params.baseId, params.columnId, query.force);
  }),
);

export const { GET, POST, PUT } = otherMethods("PATCH", "DELETE");
