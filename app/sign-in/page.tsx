import { redirect } from "next/navigation";
import { safeNextPath } from "@/lib/auth/session-cookie";
import { SignInForm } from "@/components/auth/sign-in-form";
import { autoLoginEnabled, currentPrincipal } from "../_server/session";

export const dynamic = "force-dynamic";
export const metadata = { title: "Sign in · Cellwright" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  const next = safeNextPath((await searchParams).next);
  if (await currentPrincipal()) redirect(next);
  if (await autoLoginEnabled()) redirect(`/api/v1/session/auto?next=${encodeURIComponent(next)}`);
  return (
    <main className="flex min-h-dvh items-center justify-center px-4">
      <SignInForm next={next} />
    </main>
  );
}
