import { SecretsPage } from "@/components/settings/secrets-page";
import { requireSession } from "../../_server/session";

export const dynamic = "force-dynamic";
export const metadata = { title: "Secrets · Settings · Cellwright" };

export default async function Page() {
  await requireSession("/settings/secrets");
  return <SecretsPage />;
}
