"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { usePermissions, useSession } from "../auth/use-permissions";
import { api } from "../data/api";
import { useBases } from "../data/queries";
import { Button } from "../ui/button";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { formatCount, timeAgo } from "../ui/format";
import { PlusIcon } from "../ui/icons";
import { Skeleton } from "../ui/skeleton";
import { CreateKeyDialog } from "./create-key-dialog";
import { settingsKeys, useApiKeys } from "./queries";
import { LoadError, SettingsShell, tableClass, tdClass, thClass } from "./settings-shell";
import type { ApiKeyView } from "./types";

export function KeysPage() {
  const keys = useApiKeys();
  const perms = usePermissions();
  const [creating, setCreating] = useState(false);
  const manages = perms.can("keys:manage");
  return (
    <SettingsShell
      tab="keys"
      title="API keys"
      description={
        manages
          ? "Every key of the workspace. A key acts with its scopes, never more than the person who made it."
          : "Your own keys. A key acts with its scopes, never more than you."
      }
      actions={
        <Button
          variant="primary"
          onClick={() => setCreating(true)}
          deniedReason={perms.reason("keys:own", "make API keys")}
        >
          <PlusIcon /> New key
        </Button>
      }
    >
      {keys.isPending ? (
        <Skeleton className="h-24 w-full" />
      ) : keys.isError ? (
        <LoadError what="the API keys" error={keys.error} />
      ) : keys.data.length === 0 ? (
        <p className="rounded-xl border border-dashed border-zinc-300 p-6 text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400">
          No keys yet.
        </p>
      ) : (
        <KeysTable keys={keys.data} />
      )}
      {creating ? <CreateKeyDialog onClose={() => setCreating(false)} /> : null}
    </SettingsShell>
  );
}

const dateOrDash = (iso: string | null) => (iso ? new Date(iso).toLocaleDateString() : "—");

function KeysTable({ keys }: { keys: ApiKeyView[] }) {
  const bases = useBases();
  const qc = useQueryClient();
  const perms = usePermissions();
  const session = useSession();
  const currentKey = session.data?.authenticated ? session.data.keyId : null;
  const [revoking, setRevoking] = useState<ApiKeyView | null>(null);
  const baseName = (id: string) => bases.data?.find((b) => b.baseId === id)?.name ?? id;
  // The list holds only the caller's own keys unless they manage every key: each listed key is revocable.
  const revokeReason = perms.reason("keys:own", "revoke API keys");
  return (
    <div className="overflow-x-auto">
      <table className={tableClass} aria-label="API keys">
        <thead>
          <tr>
            {[
              "Name",
              "Prefix",
              "Scopes",
              "Bases",
              "Expires",
              "Daily cap",
              "Spent today",
              "Created by",
              "Last used",
            ].map((h) => (
              <th key={h} className={thClass}>
                {h}
              </th>
            ))}
            <th className={thClass}>
              <span className="sr-only">Status and actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {keys.map((k) => (
            <tr key={k.id} className={k.revokedAt ? "text-zinc-500" : undefined}>
              <td className={tdClass}>{k.name}</td>
              <td className={`${tdClass} font-mono text-xs`}>{k.prefix}…</td>
              <td className={tdClass}>
                <ul className="flex max-w-56 flex-wrap gap-1">
                  {(k.scopes ?? []).map((s) => (
                    <li key={s} className="rounded bg-zinc-100 px-1.5 py-px font-mono text-[11px] dark:bg-zinc-800">
                      {s}
                    </li>
                  ))}
                </ul>
              </td>
              <td className={tdClass}>{k.baseIds ? k.baseIds.map(baseName).join(", ") : "All bases"}</td>
              <td className={`${tdClass} whitespace-nowrap`}>{k.expiresAt ? dateOrDash(k.expiresAt) : "Never"}</td>
              <td className={`${tdClass} tabular-nums`}>
                {k.dailyCreditCap === null ? "No cap" : formatCount(k.dailyCreditCap)}
              </td>
              <td className={`${tdClass} tabular-nums`}>{formatCount(k.spentToday ?? 0)}</td>
              <td className={tdClass}>{k.createdBy?.name ?? "—"}</td>
              <td className={`${tdClass} whitespace-nowrap`}>{k.lastUsedAt ? timeAgo(k.lastUsedAt) : "Never"}</td>
              <td className={`${tdClass} whitespace-nowrap text-right`}>
                {k.revokedAt ? (
                  <span className="text-xs">Revoked {dateOrDash(k.revokedAt)}</span>
                ) : (
                  <Button
                    size="sm"
                    variant="ghost"
                    className="text-red-700 dark:text-red-400"
                    aria-label={`Revoke ${k.name} (${k.prefix}…)`}
                    deniedReason={revokeReason}
                    onClick={() => setRevoking(k)}
                  >
                    Revoke
                  </Button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {revoking ? (
        <ConfirmDialog
          title={`Revoke “${revoking.name}”?`}
          description={
            revoking.id === currentKey
              ? "This is the key this browser is signed in with: revoking it signs you out. This cannot be undone."
              : "Scripts using this key are refused from now on. This cannot be undone."
          }
          confirmLabel="Revoke key"
          onClose={() => setRevoking(null)}
          onConfirm={async () => {
            await api(`/api/v1/api-keys/${encodeURIComponent(revoking.id)}`, { method: "DELETE" });
            await qc.invalidateQueries({ queryKey: settingsKeys.apiKeys });
          }}
        />
      ) : null}
    </div>
  );
}
