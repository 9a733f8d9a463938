import { route } from "@/lib/http/respond";
import { otherMethods } from "@/lib/http/methods";
import { changeRole } from "@/lib/auth/members";
import { removeMember } from "@/lib/auth/people";
import * as api from "@/lib/http/schemas/members";

export const PATCH = route(api.updateMember, async ({ rt, auth, audit, params, body }) =>
  rt.db.prisma.$transaction(async (tx) => {
    const before = await tx.membership.findUnique({
      where: { workspaceId_userId: { workspaceId: auth.workspaceId, userId: params.userId } },
      select: { role: true },
    });
    if (before) audit.before = before;
    return changeRole(tx, auth.workspaceId, params.userId, body.role);
  }),
);

/** Their sessions here end and the keys they made stop at once. */
export const DELETE = route(api.removeMember, async ({ rt, auth, params }) => {
  await removeMember(rt, auth.workspaceId, params.userId);
  return { removed: true as const, userId: params.userId };
});

export const { GET, POST, PUT } = otherMethods("PATCH", "DELETE");
