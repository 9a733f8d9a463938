"use client";
import { useRouter } from "next/navigation";
import { useQueryClient } from "@tanstack/react-query";
import { api } from "../data/api";
import { keys } from "../data/queries";
import { NameDialog } from "../ui/name-dialog";

export function CreateBaseDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const router = useRouter();
  const qc = useQueryClient();
  if (!open) return null;
  return (
    <NameDialog
      title="New base"
      description="A base is one table. It starts with a primary Name column."
      placeholder="e.g. Target accounts"
      maxLength={200}
      allowEmpty
      submitLabel="Create base"
      busyLabel="Creating…"
      onClose={onClose}
      onSubmit={async (name) => {
        const base = await api<{ baseId: string }>("/api/v1/bases", { body: { baseName: name || undefined } });
        await qc.invalidateQueries({ queryKey: keys.bases });
        router.push(`/bases/${base.baseId}`);
      }}
    />
  );
}
