import { describe, expect, it } from "vitest";
import { createElement as h, type ReactElement } from "react";
import { renderToString } from "react-dom/server";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { ROLE_PERMISSIONS, type Role } from "@/lib/auth/permissions.ts";
import { AuditPage } from "@/components/settings/audit-page";
import { KeysPage } from "@/components/settings/keys-page";
import { MembersPage } from "@/components/settings/members-page";
import { WorkspacePage } from "@/components/settings/workspace-page";
import { Toolbar, type ToolbarProps } from "@/components/grid/toolbar";
import { ToastProvider } from "@/components/ui/toast";

// The web app's pages rendered (server-side, from a filled query cache) for each role: a control
// the role may not use is disabled and its title says why; one it may use is not.

const at = "2026-11-01T00:00:00.000Z";

function render(
  el: ReactElement,
  role: Role,
  permissions = [...ROLE_PERMISSIONS[role]],
  userId: string | null = "usr_1",
): string {
  const qc = new QueryClient();
  qc.setQueryData(["session"], {
    authenticated: true,
    workspaceId: "wsp_1",
    keyId: userId ? null : "key_0",
    userId,
    user: userId ? { id: userId, email: "a@example.com", name: "A" } : null,
    role,
    permissions: permissions.sort(),
    baseIds: null,
  });
  qc.setQueryData(["members"], [{ userId: "usr_1", email: "a@example.com", name: "A", role, createdAt: at }]);
  qc.setQueryData(["invitations"], []);
  qc.setQueryData(["bases"], []);
  qc.setQueryData(["workspace"], { id: "wsp_1", name: "Acme", auditRetentionDays: 90, credits: 1200 });
  qc.setQueryData(
    ["api-keys"],
    [
      {
        ...{ id: "key_1", name: "Script", prefix: "cw_ab", createdAt: at, lastUsedAt: null, revokedAt: null },
        ...{ scopes: ["rows:read"], baseIds: null, expiresAt: null, dailyCreditCap: 100, spentToday: 7 },
        createdBy: { type: "user", id: "usr_1", name: "a@example.com" },
      },
    ],
  );
  return renderToString(h(QueryClientProvider, { client: qc }, h(ToastProvider, null, el)));
}

const DISABLED = ' disabled=""';

/** The opening tag of the button or select whose text (or aria-label) is `name`. */
function control(html: string, name: string): string {
  const tags = [...html.matchAll(/<(button|select)\b[^>]*>((?:(?!<\/\1>).)*)<\/\1>/gs)];
  const hit = tags.find(
    ([tag, , inner]) => inner.replace(/<[^>]+>/g, "").trim() === name || tag.includes(`aria-label="${name}"`),
  );
  if (!hit) throw new Error(`no control named ${name}`);
  return hit[0].slice(0, hit[0].indexOf(">") + 1).replaceAll("&#x27;", "'");
}

const toolbarProps: ToolbarProps = {
  ...{ baseId: "bse_1", onAddRow() {}, onAddColumn() {}, onImport() {}, selectedRows: 1, onDeleteRows() {} },
  rerun: { enabled: true, onClick() {} },
  runAll: { enabled: true, onClick() {} },
  ...{ reviewOnly: false, reviewCount: 0, onToggleReview() {}, threshold: 0.5, onThreshold() {} },
  ...{ rows: 1, of: null, loading: null, live: "live" },
};

describe("the grid toolbar", () => {
  it("disables a viewer's write controls with the reason", () => {
    const html = render(h(Toolbar, toolbarProps), "viewer");
    expect(control(html, "Row")).toContain(`title="Viewers can't add rows (needs rows:write)"`);
    expect(control(html, "Row")).toContain(DISABLED);
    expect(control(html, "Column")).toContain(`title="Viewers can't add columns (needs schema:write)"`);
    expect(control(html, "Run all")).toContain(`title="Viewers can't run AI cells (needs runs:write)"`);
    expect(control(html, "Delete 1 row")).toContain(`title="Viewers can't delete rows (needs rows:write)"`);
    expect(html).toContain("Read-only");
  });

  it("lets an editor write rows and run, but not change columns", () => {
    const html = render(h(Toolbar, toolbarProps), "editor");
    expect(control(html, "Row")).not.toContain(DISABLED);
    expect(control(html, "Run all")).not.toContain(DISABLED);
    expect(control(html, "Column")).toContain(`title="Editors can't add columns (needs schema:write)"`);
    expect(html).not.toContain("Read-only");
  });

  it("names the key when the role allows what its scopes do not", () => {
    const html = render(h(Toolbar, toolbarProps), "owner", ["rows:read", "rows:write", "keys:own"]);
    expect(control(html, "Run all")).toContain(`title="This API key can't run AI cells (needs runs:write)"`);
    expect(control(html, "Row")).not.toContain(DISABLED);
  });
});

describe("the settings pages", () => {
  it("are read-only for an admin where only owners may act", () => {
    const html = render(h(MembersPage), "admin");
    expect(control(html, "Invite member")).toContain(`title="Admins can't invite members (needs members:manage)"`);
    expect(control(html, "Role of a@example.com")).toContain(DISABLED);
    expect(control(html, "Remove a@example.com")).toContain(DISABLED);
    expect(html).not.toContain("Pending invitations");
  });

  it("offer an owner every member control and the invitations", () => {
    const html = render(h(MembersPage), "owner");
    expect(control(html, "Invite member")).not.toContain(DISABLED);
    expect(control(html, "Role of a@example.com")).not.toContain(DISABLED);
    expect(html).toContain("Pending invitations");
  });

  it("let only an owner change the workspace's name and audit retention", () => {
    const admin = render(h(WorkspacePage), "admin");
    expect(control(admin, "Save")).toContain(
      `title="Admins can't change the workspace's settings (needs members:manage)"`,
    );
    expect(admin).toContain('value="90"');
    expect(control(render(h(WorkspacePage), "owner"), "Save")).not.toContain(DISABLED);
  });

  it("list keys with their scopes, cap and spending, revocable by their owner", () => {
    const html = render(h(KeysPage), "viewer");
    expect(html).toContain("rows:read");
    expect(html).toContain("All bases");
    expect(control(html, "New key")).not.toContain(DISABLED);
    expect(control(html, "Revoke Script (cw_ab…)")).not.toContain(DISABLED);
  });

  it("say why the audit log is not shown", () => {
    expect(render(h(AuditPage), "editor").replaceAll("&#x27;", "'")).toContain(
      "Editors can't read the audit log (needs audit:read).",
    );
    expect(render(h(AuditPage), "admin")).toContain("Apply filters");
  });
});
