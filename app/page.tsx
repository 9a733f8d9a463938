import { BasesPage } from "@/components/bases/bases-page";
import { needsFirstOwner, requireSession } from "./_server/session";

export const dynamic = "force-dynamic";

export default async function Home() {
  const principal = await requireSession("/");
  return <BasesPage firstOwner={await needsFirstOwner(principal)} />;
}
