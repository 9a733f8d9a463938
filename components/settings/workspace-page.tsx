"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { usePermissions } from "../auth/use-permissions";
import { api } from "../data/api";
import { Button } from "../ui/button";
import { formatCount } from "../ui/format";
import { Skeleton } from "../ui/skeleton";
import { useToast } from "../ui/toast";
import { settingsKeys, useWorkspace } from "./queries";
import { fieldControlClass, FormError, FormField, useFormAction } from "./form-block";
import { inputClass, LoadError, SettingsShell } from "./settings-shell";
import type { WorkspaceSettings } from "./types";

export function WorkspacePage() {
  const workspace = useWorkspace();
  return (
    <SettingsShell
      tab="workspace"
      title="Workspace"
      description="Its name, its credit balance and how long the audit log keeps its entries."
    >
      {workspace.isPending ? (
        <Skeleton className="h-24 w-full" />
      ) : workspace.isError ? (
        <LoadError what="the workspace" error={workspace.error} />
      ) : (
        <WorkspaceForm key={workspace.data.id} workspace={workspace.data} />
      )}
    </SettingsShell>
  );
}

function WorkspaceForm({ workspace }: { workspace: WorkspaceSettings }) {
  const id = useId();
  const qc = useQueryClient();
  const toast = useToast();
  const denied = usePermissions().reason("members:manage", "change the workspace's settings");
  const [name, setName] = useState(workspace.name);
  const [keepForever, setKeepForever] = useState(workspace.auditRetentionDays === null);
  const [days, setDays] = useState(String(workspace.auditRetentionDays ?? 365));
  const {
    busy,
    error,
    run: submit,
  } = useFormAction(async () => {
    const body = { name: name.trim(), auditRetentionDays: keepForever ? null : Number(days) };
    qc.setQueryData(
      settingsKeys.workspace,
      await api<WorkspaceSettings>("/api/v1/workspace", { method: "PATCH", body }),
    );
    toast.success("Saved the workspace's settings.");
  });

  return (
    <form
      onSubmit={submit}
      aria-label="Workspace settings"
      className="max-w-xl space-y-4 rounded-xl border border-zinc-200 bg-white p-4 text-sm shadow-sm dark:border-zinc-800 dark:bg-zinc-900"
    >
      <p>
        Credit balance:{" "}
        <span className="font-medium tabular-nums">
          {workspace.credits === null ? "unlimited" : formatCount(workspace.credits)}
        </span>
      </p>
      <FormField id={`${id}-name`} label="Name">
        <input
          id={`${id}-name`}
          value={name}
          maxLength={100}
          disabled={Boolean(denied)}
          title={denied}
          onChange={(e) => setName(e.target.value)}
          className={fieldControlClass}
        />
      </FormField>
      <fieldset>
        <legend className="font-medium">Audit log retention</legend>
        <label className="mt-1 flex items-center gap-2">
          <input
            type="checkbox"
            checked={keepForever}
            disabled={Boolean(denied)}
            onChange={(e) => setKeepForever(e.target.checked)}
          />
          Keep entries forever
        </label>
        {keepForever ? null : (
          <div className="mt-2 flex items-center gap-2">
            <label htmlFor={`${id}-days`}>Keep entries for</label>
            <input
              id={`${id}-days`}
              type="number"
              min={1}
              max={3650}
              step={1}
              required
              value={days}
              disabled={Boolean(denied)}
              onChange={(e) => setDays(e.target.value)}
              className={`${inputClass} w-24`}
            />
            days
          </div>
        )}
      </fieldset>
      <FormError error={error} />
      <Button type="submit" variant="primary" disabled={busy || name.trim() === ""} deniedReason={denied}>
        {busy ? "Saving…" : "Save"}
      </Button>
    </form>
  );
}
