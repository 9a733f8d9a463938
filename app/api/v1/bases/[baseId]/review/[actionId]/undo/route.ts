import { route } from "@/lib/http/respond";
import { inTransaction } from "@/lib/db/work";
import { undoReview } from "@/lib/domain/review/index";
import { otherMethods } from "@/lib/http/methods";
import * as api from "@/lib/http/schemas/review";

export const POST = route(api.undoReview, async ({ params, rt, auth, audit }) => {
  audit.targetId = params.actionId;
  return inTransaction(rt, (w) => undoReview(w, auth, params.baseId, params.actionId));
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
