// The audit log: what route() records after a successful change, and what GET /api/v1/audit reads.
export { type AuditDraft, type AuditNote, draftEntry } from "./summary.ts";
export { type AuditActor, type AuditContext, pruneAuditEntries, recordAudit, recordAuditAfter } from "./record.ts";
export { type AuditEntryView, type AuditFilter, DEFAULT_AUDIT_PAGE, listAuditEntries, MAX_AUDIT_PAGE } from "./list.ts";
