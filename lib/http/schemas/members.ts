import { z } from "zod";
import { defineEndpoint, pathId, secretField } from "../endpoint.ts";
import { ROLES } from "../../auth/permissions.ts";
import { isoDate, nullableIsoDate } from "./common.ts";

// The people of a workspace: members and their roles, invitations, password reset links, and the
// first owner account. Changing who belongs is for owners (members:manage); anyone may list.

const roleSchema = z.enum(ROLES).describe("owner, admin, editor or viewer.");
const email = z.string().trim().toLowerCase().min(3).max(320).email("Enter an email address.");
const password = z.string().min(1, "Enter a password.").max(200).describe("At least 10 characters.");
const name = z.string().trim().max(200).optional().describe("Their name, as shown to others.");
const userIdParam = z.object({ userId: pathId("The member's user id (usr_…).", "member_not_found") });

const memberSchema = z
  .strictObject({
    userId: z.string().describe("The user's id (usr_…)."),
    email: z.string().describe("Their email."),
    name: z.string().describe("Their name; may be empty."),
    role: roleSchema,
    createdAt: isoDate("When they joined"),
  })
  .describe("A member of the workspace.");

const invitationShape = {
  id: z.string().describe("The invitation's id (inv_…)."),
  role: roleSchema,
  email: z.string().nullable().describe("The only email that may accept it; null: anyone with the link."),
  expiresAt: isoDate("When the link stops working (7 days)"),
  createdAt: isoDate("When it was made"),
};
const invitationSchema = z
  .strictObject({
    ...invitationShape,
    usedAt: nullableIsoDate("When it was accepted"),
    revokedAt: nullableIsoDate("When it was revoked"),
  })
  .describe("An invitation, without its link.");

export const listMembers = defineEndpoint({
  method: "GET",
  path: "/api/v1/members",
  scope: "rows:read",
  summary: "List members",
  response: z.strictObject({ members: z.array(memberSchema).describe("The members, oldest first.") }),
});

export const updateMember = defineEndpoint({
  method: "PATCH",
  path: "/api/v1/members/{userId}",
  scope: "members:manage",
  audit: { action: "member.role_change", target: "user", fields: ["role"] },
  summary: "Change a member's role",
  description: "409 last_owner when it would leave the workspace without an owner.",
  params: userIdParam,
  body: z.object({ role: roleSchema }).strict(),
  response: memberSchema,
});

export const removeMember = defineEndpoint({
  method: "DELETE",
  path: "/api/v1/members/{userId}",
  scope: "members:manage",
  audit: { action: "member.remove", target: "user" },
  summary: "Remove a member",
  description:
    "Their sessions in this workspace end and the API keys they made stop working at once. 409 last_owner for the last owner.",
  params: userIdParam,
  response: z.strictObject({
    removed: z.literal(true).describe("Always true."),
    userId: z.string().describe("The removed user."),
  }),
});

export const createFirstOwner = defineEndpoint({
  method: "POST",
  path: "/api/v1/members/first-owner",
  scope: "members:manage",
  audit: { action: "member.create", target: "user", fields: ["email", "role"] },
  summary: "Create the first owner account",
  description:
    "While the workspace has no owner member, a workspace key (or a session made from one) makes the owner's account: a new user, or an existing one with their password. The session, if any, becomes the owner's (Set-Cookie). 409 already_member once the workspace has an owner member.",
  body: z.object({ email: email.describe("The owner's email."), name, password }).strict(),
  status: 201,
  response: memberSchema,
});

export const createInvitation = defineEndpoint({
  method: "POST",
  path: "/api/v1/invitations",
  scope: "members:manage",
  audit: { action: "invitation.create", target: "invitation", fields: ["role", "email"] },
  summary: "Invite someone",
  description:
    "A link that makes its opener a member with the role: valid 7 days, once. With `email`, only that email may accept it. The link is in this answer only; only its hash is stored.",
  body: z.object({ role: roleSchema, email: email.optional().describe("Only this email may accept it.") }).strict(),
  status: 201,
  response: z.strictObject({
    ...invitationShape,
    url: secretField("The link to send: /invite?token=…. Shown once: null in a replay of this request."),
  }),
});

export const listInvitations = defineEndpoint({
  method: "GET",
  path: "/api/v1/invitations",
  scope: "members:manage",
  summary: "List invitations",
  response: z.strictObject({ invitations: z.array(invitationSchema).describe("Newest first; never the links.") }),
});

export const revokeInvitation = defineEndpoint({
  method: "DELETE",
  path: "/api/v1/invitations/{invitationId}",
  scope: "members:manage",
  audit: { action: "invitation.revoke", target: "invitation" },
  summary: "Revoke an invitation",
  params: z.object({ invitationId: pathId("The invitation's id (inv_…).", "invitation_not_found") }),
  response: invitationSchema,
});

export const acceptInvitation = defineEndpoint({
  method: "POST",
  path: "/api/v1/invitations/accept",
  summary: "Accept an invitation",
  description:
    "Joins the workspace and signs in (Set-Cookie). A new email makes an account with this password (at least 10 characters); an existing account's email needs its password (401 invalid_credentials). Same-origin requests only.",
  public: true,
  audit: { action: "invitation.accept", target: "user", fields: ["role"] },
  body: z
    .object({
      token: z.string().max(200).describe("The token from the link."),
      email: email.describe("Their email: a new account, or an existing one with its password."),
      name,
      password,
    })
    .strict(),
  status: 201,
  response: z.strictObject({
    workspaceId: z.string().describe("The workspace joined."),
    userId: z.string().describe("The user."),
    role: roleSchema,
    expiresAt: isoDate("When the session ends"),
  }),
});

export const createPasswordReset = defineEndpoint({
  method: "POST",
  path: "/api/v1/password-resets",
  scope: "members:manage",
  audit: { action: "password_reset.create", target: "user" },
  summary: "Make a password reset link",
  description: "For a member: a link that sets a new password, valid 1 hour, once. Shown in this answer only.",
  body: z.object({ userId: z.string().min(1).max(100).describe("The member's user id.") }).strict(),
  status: 201,
  response: z.strictObject({
    url: secretField("The link: /reset-password?token=…. Shown once: null in a replay of this request."),
    expiresAt: isoDate("When the link stops working"),
  }),
});

export const redeemPasswordReset = defineEndpoint({
  method: "POST",
  path: "/api/v1/password-resets/redeem",
  summary: "Set a new password",
  description:
    "Uses a reset link's token once; every session of the user ends. Recorded in the audit log of each workspace they belong to.",
  public: true,
  audit: { action: "password_reset.redeem", target: "user" },
  body: z.object({ token: z.string().max(200).describe("The token from the link."), password }).strict(),
  response: z.strictObject({ reset: z.literal(true).describe("Always true.") }),
});
