import { redirect } from "next/navigation";
import { safeNextPath } from "@/lib/auth/session-cookie";
import { SignInForm } from "@/components/auth/sign-in-form";
import { getRuntime } from "@/lib/runtime";
import { autoLoginEnabled, currentPrincipal } from "../_server/session";

export const dynamic = "force-dynamic";
export const metadata = { title: "Sign in · Cellwright" };

type Params = { next?: string; token?: string; link?: string; error?: string };

export default async function SignInPage({ searchParams }: { searchParams: Promise<Params> }) {
  const params = await searchParams;
  // A one-time link (first start, `npm run cli -- sign-in-link`): a plain GET, no script needed.
  if (params.token) redirect(`/api/v1/session/link?token=${encodeURIComponent(params.token)}`);
  const next = safeNextPath(params.next);
  if (await currentPrincipal()) redirect(next);
  if (await autoLoginEnabled()) redirect(`/api/v1/session/auto?next=${encodeURIComponent(next)}`);
  const sso = Boolean((await getRuntime()).config.oidc);
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-4 px-4">
      {params.link === "invalid" && (
        <p
          role="alert"
          className="w-full max-w-sm rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-200"
        >
          This sign-in link is invalid, has expired or was already used. Run <code>npm run cli -- sign-in-link</code>{" "}
          for a new one, or sign in with an API key.
        </p>
      )}
      {params.error === "sso_failed" && (
        <p
          role="alert"
          className="w-full max-w-sm rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-200"
        >
          Single sign-on did not complete. Try again, or ask an administrator to check the server log.
        </p>
      )}
      <SignInForm next={next} />
      {sso && (
        // A plain link: the sign-on starts with a top-level GET, which the provider redirects back to.
        <a
          href={`/api/v1/session/sso?next=${encodeURIComponent(next)}`}
          className="text-sm font-medium text-indigo-700 underline-offset-4 hover:underline dark:text-indigo-300"
        >
          Sign in with single sign-on
        </a>
      )}
    </main>
  );
}
