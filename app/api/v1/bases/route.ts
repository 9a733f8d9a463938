import { route } from "@/lib/http/respond";
import { inTransaction } from "@/lib/db/work";
import { createBase, listBases } from "@/lib/domain/bases";
import { otherMethods } from "@/lib/http/methods";
import { configuredProviders } from "@/lib/domain/model-spec";
import * as api from "@/lib/http/schemas/bases";
import { baseInScope } from "@/lib/auth/authorize";

export const GET = route(api.listBases, async ({ rt, auth }) => ({
  // A key limited to some bases sees only those.
  bases: (await listBases(rt.db.prisma, auth.workspaceId)).filter((b) => baseInScope(auth, b.baseId)),
}));

export const POST = route(api.createBase, async ({ body, rt, auth, audit }) => {
  const created = await inTransaction(rt, (w) =>
    createBase(w, auth.workspaceId, body, configuredProviders(rt.config.ai)),
  );
  audit.summary = { name: created.sheet.name, columns: created.sheetColumns.length };
  return created;
});

export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
