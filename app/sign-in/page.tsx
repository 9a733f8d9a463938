import { redirect } from "next/navigation";
import { safeNextPath } from "@/lib/auth/session-cookie";
import { SignInForm } from "@/components/auth/sign-in-form";
import { autoLoginEnabled, currentPrincipal, ssoEnabled } from "../_server/session";

export const dynamic = "force-dynamic";
export const metadata = { title: "Sign in · Cellwright" };

const NOTICE =
  "w-full max-w-sm rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-200";

type Params = { next?: string; token?: string; link?: string; error?: string };

export default async function SignInPage({ searchParams }: { searchParams: Promise<Params> }) {
  const params = await searchParams;
  // A one-time link (first start, `npm run cli -- sign-in-link`): a plain GET, no script needed.
  if (params.token) redirect(`/api/v1/session/link?token=${encodeURIComponent(params.token)}`);
  const next = safeNextPath(params.next);
  if (await currentPrincipal()) redirect(next);
  if (await autoLoginEnabled()) redirect(`/api/v1/session/auto?next=${encodeURIComponent(next)}`);
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-4 px-4">
      {params.link === "invalid" && (
        <p role="alert" className={NOTICE}>
          This sign-in link is invalid, has expired or was already used. Run <code>npm run cli -- sign-in-link</code>{" "}
          for a new one, or sign in with an API key.
        </p>
      )}
      {params.error === "sso_failed" && (
        <p role="alert" className={NOTICE}>
          Single sign-on did not complete. Try again, or sign in another way.
        </p>
      )}
      <SignInForm next={next} ssoEnabled={await ssoEnabled()} />
    </main>
  );
}
