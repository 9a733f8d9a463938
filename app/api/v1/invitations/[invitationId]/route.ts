import { route } from "@/lib/http/respond";
import { otherMethods } from "@/lib/http/methods";
import { revokeInvitation } from "@/lib/auth/invitations";
import * as api from "@/lib/http/schemas/members";

export const DELETE = route(api.revokeInvitation, async ({ rt, auth, params }) =>
  revokeInvitation(rt.db.prisma, auth.workspaceId, params.invitationId),
);

export const { GET, POST, PUT, PATCH } = otherMethods("DELETE");
