import { InviteForm } from "@/components/auth/invite-form";

export const dynamic = "force-dynamic";
export const metadata = { title: "Join a workspace · Cellwright" };

// The token is checked when the form is sent: this page reveals nothing about it.
export default async function InvitePage({ searchParams }: { searchParams: Promise<{ token?: string }> }) {
  const { token } = await searchParams;
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-4 px-4">
      <InviteForm token={token ?? ""} />
    </main>
  );
}
