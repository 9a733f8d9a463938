import { BaseView } from "@/components/grid/base-view";
import { ChatPanel } from "@/components/chat/chat-panel";
import { getRuntime } from "@/lib/runtime";
import { requireSession } from "../../_server/session";

export const dynamic = "force-dynamic";

export default async function BasePage({ params }: { params: Promise<{ baseId: string }> }) {
  const { baseId } = await params;
  await requireSession(`/bases/${encodeURIComponent(baseId)}`);
  const { config } = await getRuntime();
  // Keyed by base so that moving between bases starts from a fresh row store.
  return (
    <BaseView
      key={baseId}
      baseId={baseId}
      side={<ChatPanel baseId={baseId} />}
      maxScrollHeight={config.gridMaxScrollPx}
    />
  );
}
