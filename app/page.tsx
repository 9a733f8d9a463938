import { BasesPage } from "@/components/bases/bases-page";
import { requireSession } from "./_server/session";

export const dynamic = "force-dynamic";

export default async function Home() {
  await requireSession("/");
  return <BasesPage />;
}
