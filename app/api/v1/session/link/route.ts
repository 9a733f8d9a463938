import { route } from "@/lib/http/respond";
import { isAppError } from "@/lib/errors";
import { createSession } from "@/lib/auth/session";
import { redeemSignInToken } from "@/lib/auth/sign-in-link";
import { isSecureRequest, sessionCookie } from "@/lib/auth/session-cookie";
import { otherMethods } from "@/lib/http/methods";
import * as api from "@/lib/http/schemas/session";

/** A one-time sign-in link: the token is used once, and the browser lands on the bases page signed in. */
export const GET = route(api.signInWithLink, async ({ req, query, rt }) => {
  try {
    const session = await createSession(rt, await redeemSignInToken(rt.db.prisma, query.token));
    return new Response(null, {
      status: 303,
      headers: {
        location: "/",
        "set-cookie": sessionCookie(session.token, session.expiresAt, isSecureRequest(req, rt.config.trustProxy)),
      },
    });
  } catch (e) {
    // A person opening a dead link gets a page that says so; a script gets the JSON error.
    if (isAppError(e) && e.code === "invalid_sign_in_link" && (req.headers.get("accept") ?? "").includes("text/html")) {
      return new Response(null, { status: 303, headers: { location: "/sign-in?link=invalid" } });
    }
    throw e;
  }
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
