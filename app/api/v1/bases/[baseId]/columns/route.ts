import { route } from "@/lib/http/respond";
import { inTransaction } from "@/lib/db/work";
import { createColumn } from "@/lib/domain/columns";
import { otherMethods } from "@/lib/http/methods";
import * as api from "@/lib/http/schemas/columns";

export const POST = route(api.createColumn, async ({ params, body, rt, auth }) =>
  inTransaction(rt, (w) => createColumn(w, auth.workspaceId, params.baseId, body)),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
