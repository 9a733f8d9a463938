import { route } from "@/lib/http/respond";
import { appError } from "@/lib/errors";
import { principalForKey } from "@/lib/auth/authenticate";
import { createSession } from "@/lib/auth/session";
import { isSecureRequest, safeNextPath, sessionCookie } from "@/lib/auth/session-cookie";
import { otherMethods } from "@/lib/http/methods";
import * as api from "@/lib/http/schemas/session";

/**
 * UI_AUTO_LOGIN: for local single-user installs, the UI signs in with API_KEY without asking.
 * Off by default; when off this endpoint does not exist.
 */
export const GET = route(api.autoSignIn, async ({ req, query, rt }) => {
  const key = rt.config.seedApiKey;
  if (!rt.config.uiAutoLogin || !key) throw appError("not_found");
  const session = await createSession(rt, await principalForKey(rt, key));
  return new Response(null, {
    status: 303,
    headers: {
      location: safeNextPath(query.next ?? null),
      "set-cookie": sessionCookie(session.token, session.expiresAt, isSecureRequest(req, rt.config.trustProxy)),
    },
  });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
