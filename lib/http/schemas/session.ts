import { z } from "zod";
import { defineEndpoint } from "../endpoint.ts";

// The web app's session: sign in with an API key for a cookie, ask who is signed in, sign out.

export const getSession = defineEndpoint({
  method: "GET",
  path: "/api/v1/session",
  summary: "Who is signed in",
  description: "By session cookie or X-API-Key; 200 either way.",
  public: true,
  response: z.union([
    z.strictObject({
      authenticated: z.literal(true).describe("Signed in."),
      workspaceId: z.string().describe("The workspace."),
      keyId: z.string().describe("The API key the session was made with."),
    }),
    z.strictObject({ authenticated: z.literal(false).describe("Not signed in.") }),
  ]),
});

export const signIn = defineEndpoint({
  method: "POST",
  path: "/api/v1/session",
  summary: "Sign in",
  description: "Exchanges an API key for a session cookie (Set-Cookie). Same-origin requests only.",
  public: true,
  body: z
    .object({ apiKey: z.string().trim().min(1, "Enter an API key.").max(500).describe("An API key of the workspace.") })
    .strict(),
  status: 201,
  response: z.strictObject({
    workspaceId: z.string().describe("The workspace."),
    keyId: z.string().describe("The key's id."),
    expiresAt: z.string().describe("When the session ends (ISO 8601)."),
  }),
});

export const signOut = defineEndpoint({
  method: "DELETE",
  path: "/api/v1/session",
  summary: "Sign out",
  description: "Ends the session and clears the cookie. Same-origin requests only.",
  public: true,
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
