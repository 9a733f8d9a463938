import { route } from "@/lib/http/respond";
import { inTransaction } from "@/lib/db/work";
import { deleteRows } from "@/lib/domain/rows/index";
import { otherMethods } from "@/lib/http/methods";
import * as api from "@/lib/http/schemas/write-rows";

export const POST = route(api.deleteRows, async ({ params, body, rt, auth, audit }) => {
  const result = await inTransaction(rt, (w) => deleteRows(w, auth.workspaceId, params.baseId, body));
  // How many, never which values; a request that deleted nothing is not recorded.
  audit.summary = { deleted: result.deletedRowIds.length };
  audit.skip = result.deletedRowIds.length === 0;
  return result;
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
