import { describe, expect, it } from "vitest";
import { ACTIONS, denialReason } from "@/components/auth/use-permissions";
import { auditSearch } from "@/components/settings/queries";
import { PERSON_PERMISSIONS, KEY_SCOPES } from "@/lib/auth/permissions.ts";

// The words on a disabled control, and the audit page's query string.

describe("denialReason", () => {
  it("names the role when the role lacks the permission", () => {
    expect(denialReason("viewer", "rows:write")).toBe("Viewers can't edit rows (needs rows:write)");
    expect(denialReason("editor", "schema:write", "add columns")).toBe(
      "Editors can't add columns (needs schema:write)",
    );
    expect(denialReason("admin", "members:manage", "invite members")).toBe(
      "Admins can't invite members (needs members:manage)",
    );
  });

  it("names the key when the role has it but the key's scopes do not", () => {
    expect(denialReason("owner", "runs:write")).toBe("This API key can't run AI cells (needs runs:write)");
  });

  it("has words for every permission", () => {
    for (const p of [...KEY_SCOPES, ...PERSON_PERMISSIONS]) expect(ACTIONS[p]).toMatch(/^[a-z]/);
  });
});

describe("auditSearch", () => {
  const none = { action: "", actorId: "", baseId: "", since: "", until: "" };

  it("leaves empty filters out", () => {
    expect(auditSearch(none, null)).toBe("limit=50");
  });

  it("sends the filters, ISO dates and the cursor", () => {
    const q = new URLSearchParams(
      auditSearch(
        { action: " invitation.create ", actorId: "usr_1", baseId: "bse_1", since: "2026-11-01T10:00", until: "" },
        "cur_2",
      ),
    );
    expect(q.get("action")).toBe("invitation.create");
    expect(q.get("actorId")).toBe("usr_1");
    expect(q.get("baseId")).toBe("bse_1");
    expect(new Date(q.get("since")!).toISOString()).toBe(q.get("since"));
    expect(q.has("until")).toBe(false);
    expect(q.get("cursor")).toBe("cur_2");
  });
});
