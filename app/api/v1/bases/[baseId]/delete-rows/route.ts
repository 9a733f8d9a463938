import { route } from "@/lib/http/respond";
import { inTransaction } from "@/lib/db/work";
import { deleteRows } from "@/lib/domain/rows/index";
import { otherMethods } from "@/lib/http/methods";
import * as api from "@/lib/http/schemas/write-rows";

export const POST = route(api.deleteRows, async ({ params, body, rt, auth }) =>
  inTransaction(rt, (w) => deleteRows(w, auth.workspaceId, params.baseId, body)),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
