import { z } from "zod";
import { json, route } from "@/lib/http/respond";
import { readBody } from "@/lib/http/body";
import { otherMethods } from "@/lib/http/methods";
import { authenticate, principalForKey } from "@/lib/auth/authenticate";
import { isAppError } from "@/lib/errors";
import { createSession, deleteSession } from "@/lib/auth/session";
import { assertSameOrigin, clearedSessionCookie, isSecureRequest, sessionCookie, sessionTokenOf } from "@/lib/auth/session-cookie";

const signInSchema = z.object({ apiKey: z.string().trim().min(1, "Enter an API key.").max(500) }).strict();

/**
 * Who is signed in (by cookie or X-API-Key). Answers 200 either way, so the sign-in page can
 * ask without an error.
 */
export const GET = route(
  async ({ req, rt }) => {
    try {
      const auth = await authenticate(rt, req);
      return { authenticated: true, workspaceId: auth.workspaceId, keyId: auth.keyId };
    } catch (e) {
      if (isAppError(e) && e.status === 401) return { authenticated: false };
      throw e;
    }
  },
  { public: true },
);

/** Sign in: exchanges an API key for a session cookie. The key itself is not kept by the browser. */
export const POST = route(
  async ({ req, rt }) => {
    assertSameOrigin(req);
    const { apiKey } = await readBody(req, signInSchema);
    const principal = await principalForKey(rt, apiKey);
    const session = await createSession(rt, principal);
    const body = { workspaceId: principal.workspaceId, keyId: principal.keyId, expiresAt: session.expiresAt.toISOString() };
    return json(body, 201, { "set-cookie": sessionCookie(session.token, session.expiresAt, isSecureRequest(req)) });
  },
  { public: true },
);

/** Sign out: ends the session server-side and clears the cookie, even if it had already expired. */
export const DELETE = route(
  async ({ req, rt }) => {
    assertSameOrigin(req);
    const token = sessionTokenOf(req);
    if (token) await deleteSession(rt, token);
    return json({ signedOut: true }, 200, { "set-cookie": clearedSessionCookie(isSecureRequest(req)) });
  },
  { public: true },
);

export const { PUT, PATCH } = otherMethods("GET", "POST", "DELETE");
