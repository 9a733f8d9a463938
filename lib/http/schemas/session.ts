import { z } from "zod";
import { booleanQuery, defineEndpoint } from "../endpoint.ts";
import { ROLES } from "../../auth/permissions.ts";

// The web app's session: sign in with an API key or a password for a cookie, ask who is signed
// in, sign out.

const roleSchema = z.enum(ROLES).describe("owner, admin, editor or viewer.");

export const getSession = defineEndpoint({
  method: "GET",
  path: "/api/v1/session",
  summary: "Who is signed in",
  description:
    "By session cookie or X-API-Key; 200 either way. Signed in: the workspace, the key or user, the role, what it may do (permissions, sorted) and the bases it is limited to (null: every base). Signed out: whether single sign-on is offered.",
  public: true,
  response: z.union([
    z.strictObject({
      authenticated: z.literal(true).describe("Signed in."),
      workspaceId: z.string().describe("The workspace."),
      keyId: z.string().nullable().describe("The API key of the request or session; null for a user's own session."),
      userId: z
        .string()
        .nullable()
        .describe("The person: the signed-in user, or the key's creator; null for workspace keys."),
      user: z
        .strictObject({
          id: z.string().describe("The user's id (usr_…)."),
          email: z.string().describe("Their email."),
          name: z.string().describe("Their name; may be empty."),
        })
        .nullable()
        .describe("The person, or null for a workspace key."),
      role: roleSchema,
      permissions: z
        .array(z.string())
        .describe("What the caller may do: key scopes and members:manage, keys:own; sorted."),
      baseIds: z.array(z.string()).nullable().describe("The bases a key is limited to; null: every base."),
    }),
    z.strictObject({
      authenticated: z.literal(false).describe("Not signed in."),
      ssoEnabled: z.boolean().describe("Whether single sign-on is configured (OIDC_ISSUER)."),
    }),
  ]),
});

const password = z.string().min(1, "Enter a password.").max(200).describe("The password.");

export const signIn = defineEndpoint({
  method: "POST",
  path: "/api/v1/session",
  summary: "Sign in",
  description:
    "With an API key, or with email and password (of a member; `workspace` names one of theirs, else the oldest membership). Sets the session cookie (Set-Cookie). Same-origin requests only. A wrong email or password answers 401 invalid_credentials, either way.",
  public: true,
  body: z.union([
    z
      .object({
        apiKey: z.string().trim().min(1, "Enter an API key.").max(500).describe("An API key of the workspace."),
      })
      .strict(),
    z
      .object({
        email: z.string().trim().min(1, "Enter an email.").max(320).describe("The account's email."),
        password,
        workspace: z
          .string()
          .trim()
          .min(1)
          .max(200)
          .optional()
          .describe("A workspace's name; default the oldest membership."),
      })
      .strict(),
  ]),
  status: 201,
  response: z.strictObject({
    workspaceId: z.string().describe("The workspace."),
    keyId: z.string().nullable().describe("The key's id; null when signed in as a user."),
    userId: z.string().nullable().describe("The user; null for a workspace key."),
    expiresAt: z.string().describe("When the session ends (ISO 8601)."),
  }),
});

export const signOut = defineEndpoint({
  method: "DELETE",
  path: "/api/v1/session",
  summary: "Sign out",
  description:
    "Ends the session and clears the cookie. With everywhere=true, ends every session of the user (in every workspace), or of the key the session was made from. Same-origin requests only.",
  public: true,
  query: z.object({
    everywhere: booleanQuery("everywhere", "true: every session of the user, not only this one."),
  }),
  response: z.strictObject({ signedOut: z.literal(true).describe("Always true.") }),
});

export const autoSignIn = defineEndpoint({
  method: "GET",
  path: "/api/v1/session/auto",
  summary: "Automatic sign-in (UI_AUTO_LOGIN)",
  description:
    "For local single-user installs: signs in with API_KEY and redirects (303). 404 when UI_AUTO_LOGIN is off.",
  public: true,
  query: z.object({
    next: z.string().max(2_000).optional().describe("Where to go afterwards: a path of this site; default /."),
  }),
  status: 303,
  responseContentType: "none (303 redirect with Set-Cookie)",
  response: z.null().describe("No body: a 303 redirect to next, with the session cookie."),
});

export const signInWithLink = defineEndpoint({
  method: "GET",
  path: "/api/v1/session/link",
  summary: "Sign in with a one-time link",
  description:
    "Opened from the link printed at the first start or by `npm run cli -- sign-in-link`: uses the token once, sets the session cookie and redirects (303) to the bases page. An invalid, expired or used token answers 401 invalid_sign_in_link, or, for a browser, redirects to the sign-in page, which says so.",
  public: true,
  query: z.object({ token: z.string().max(200).describe("The token from the link: valid 15 minutes, once.") }),
  status: 303,
  responseContentType: "none (303 redirect with Set-Cookie)",
  response: z.null().describe("No body: a 303 redirect to /, with the session cookie."),
});
