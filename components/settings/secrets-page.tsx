"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { SECRET_MAX_BYTES, SECRET_NAME_RULE } from "@/lib/secrets/rules.ts";
import { usePermissions } from "../auth/use-permissions";
import { api } from "../data/api";
import { Button } from "../ui/button";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { Skeleton } from "../ui/skeleton";
import { useToast } from "../ui/toast";
import { fieldControlClass, FormError, FormField, useFormAction } from "./form-block";
import { settingsKeys, useSecrets } from "./queries";
import { LoadError, SettingsShell, tableClass, tdClass, thClass } from "./settings-shell";
import type { SecretView } from "./types";

const emptyClass =
  "rounded-xl border border-dashed border-zinc-300 p-6 text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400";

export function SecretsPage() {
  const denied = usePermissions().reason("secrets:manage");
  const secrets = useSecrets(!denied);
  return (
    <SettingsShell
      tab="secrets"
      title="Secrets"
      description="Tokens that HTTP columns send as {{secret:NAME}}. Values are stored encrypted and never shown again."
    >
      {denied ? (
        <p className={emptyClass}>{`${denied}.`}</p>
      ) : (
        <div className="space-y-6">
          <AddSecretForm />
          {secrets.isPending ? (
            <Skeleton className="h-24 w-full" />
          ) : secrets.isError ? (
            <LoadError what="the secrets" error={secrets.error} />
          ) : secrets.data.length === 0 ? (
            <p className={emptyClass}>No secrets yet.</p>
          ) : (
            <SecretsTable secrets={secrets.data} />
          )}
        </div>
      )}
    </SettingsShell>
  );
}

function AddSecretForm() {
  const id = useId();
  const qc = useQueryClient();
  const toast = useToast();
  const [name, setName] = useState("");
  const [value, setValue] = useState("");
  const { busy, error, run } = useFormAction(async () => {
    const created = await api<SecretView>("/api/v1/secrets", { method: "POST", body: { name, value } });
    // The value leaves the page's state as soon as the server holds it.
    setValue("");
    setName("");
    await qc.invalidateQueries({ queryKey: settingsKeys.secrets });
    toast.success(`Stored ${created.name}${created.last4 ? `, ending in ${created.last4}` : ""}.`);
  });
  return (
    <form
      onSubmit={run}
      aria-label="Add a secret"
      className="max-w-xl space-y-4 rounded-xl border border-zinc-200 bg-white p-4 text-sm shadow-sm dark:border-zinc-800 dark:bg-zinc-900"
    >
      <FormField id={`${id}-name`} label="Name">
        <input
          id={`${id}-name`}
          value={name}
          required
          maxLength={64}
          pattern="[A-Z][A-Z0-9_]{0,63}"
          title={`The name is ${SECRET_NAME_RULE}.`}
          placeholder="CLEARBIT_KEY"
          autoComplete="off"
          spellCheck={false}
          onChange={(e) => setName(e.target.value.toUpperCase())}
          className={`${fieldControlClass} font-mono`}
        />
      </FormField>
      <FormField id={`${id}-value`} label="Value">
        <input
          id={`${id}-value`}
          type="password"
          value={value}
          required
          maxLength={SECRET_MAX_BYTES}
          autoComplete="new-password"
          onChange={(e) => setValue(e.target.value)}
          className={fieldControlClass}
        />
      </FormField>
      <FormError error={error} />
      <Button type="submit" variant="primary" disabled={busy || name === "" || value === ""}>
        {busy ? "Storing…" : "Add secret"}
      </Button>
    </form>
  );
}

function SecretsTable({ secrets }: { secrets: SecretView[] }) {
  const qc = useQueryClient();
  const [deleting, setDeleting] = useState<SecretView | null>(null);
  return (
    <div className="overflow-x-auto">
      <table className={tableClass} aria-label="Secrets">
        <thead>
          <tr>
            {["Name", "Ends in", "Set"].map((h) => (
              <th key={h} className={thClass}>
                {h}
              </th>
            ))}
            <th className={thClass}>
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {secrets.map((s) => (
            <tr key={s.name}>
              <td className={`${tdClass} font-mono`}>{s.name}</td>
              <td className={`${tdClass} font-mono text-xs`}>{s.last4 ? `…${s.last4}` : "—"}</td>
              <td className={`${tdClass} whitespace-nowrap`}>{new Date(s.createdAt).toLocaleString()}</td>
              <td className={`${tdClass} text-right`}>
                <Button
                  size="sm"
                  variant="ghost"
                  className="text-red-700 dark:text-red-400"
                  aria-label={`Delete ${s.name}`}
                  onClick={() => setDeleting(s)}
                >
                  Delete
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {deleting ? (
        <ConfirmDialog
          title={`Delete “${deleting.name}”?`}
          description="HTTP columns that send it fail with secret_not_found until a secret of this name is added again. The value cannot be recovered."
          confirmLabel="Delete secret"
          onClose={() => setDeleting(null)}
          onConfirm={async () => {
            await api(`/api/v1/secrets/${encodeURIComponent(deleting.name)}`, { method: "DELETE" });
            await qc.invalidateQueries({ queryKey: settingsKeys.secrets });
          }}
        />
      ) : null}
    </div>
  );
}
