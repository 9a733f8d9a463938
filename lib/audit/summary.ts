// What an audit entry says about its target, worked out from the endpoint's declaration, the
// request's path params and the answer: pure, so the rules are tested without a database.

/** What a handler may add to its entry (ctx.audit): the state before, or facts the answer lacks. */
export interface AuditNote {
  /** The target as it was before an update or delete: the summary keeps the declared fields. */
  before?: Record<string, unknown>;
  /** A summary of its own (an export's format), merged over the one worked out. */
  summary?: Record<string, unknown>;
  targetId?: string;
  baseId?: string;
  /** Public endpoints (accepting an invitation) name the workspace and the person themselves. */
  workspaceId?: string;
  /**
   * A person's own change that holds in every workspace they belong to (a new password): one
   * entry in each of these instead of one in workspaceId.
   */
  workspaceIds?: readonly string[];
  actor?: { type: "user" | "key"; id: string };
  /** Nothing happened worth recording (a repeated request that changed nothing). */
  skip?: boolean;
}

export interface AuditDeclaration {
  action: string;
  target?: string;
  fields?: readonly string[];
  optional?: boolean;
}

export interface AuditDraft {
  action: string;
  targetType: string | null;
  targetId: string | null;
  baseId: string | null;
  summary: Record<string, unknown> | null;
}

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);

/** The entry a successful call makes, or null when the declaration says to record nothing. */
export function draftEntry(spec: AuditDeclaration, params: Obj, answer: unknown, note: AuditNote): AuditDraft | null {
  if (note.skip) return null;
  const out = isObj(answer) ? answer : {};
  const idName = spec.target ? `${spec.target}Id` : undefined;
  const targetId =
    note.targetId ?? (idName ? (str(params[idName]) ?? str(out[idName]) ?? str(out.id)) : undefined) ?? null;
  if (spec.optional && targetId === null) return null;
  const baseId =
    note.baseId ?? str(params.baseId) ?? str(out.baseId) ?? (spec.target === "base" ? targetId : null) ?? null;
  const summary = { ...summaryOf(spec, out, note.before), ...note.summary };
  return {
    action: spec.action,
    targetType: spec.target ?? null,
    targetId,
    baseId,
    summary: Object.keys(summary).length > 0 ? summary : null,
  };
}

function summaryOf(spec: AuditDeclaration, answer: Obj, before: Obj | undefined): Obj {
  const fields = spec.fields ?? [];
  if (fields.length === 0) return {};
  if (!before) return pick(answer, fields);
  if (spec.action.endsWith(".delete")) return { before: pick(before, fields) };
  const changed = fields.filter((f) => f in answer && JSON.stringify(before[f]) !== JSON.stringify(answer[f]));
  return { before: pick(before, changed), after: pick(answer, changed) };
}

function pick(from: Obj, fields: readonly string[]): Obj {
  const out: Obj = {};
  for (const f of fields) if (from[f] !== undefined) out[f] = small(from[f]);
  return out;
}

const MAX_TEXT = 200;
const MAX_JSON = 1_000;

/** Summaries stay small: long text is cut, and a large value is replaced by its size. */
export function small(value: unknown): unknown {
  if (typeof value === "string")
    return value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}… (${value.length} characters)` : value;
  const text = JSON.stringify(value);
  if (text !== undefined && text.length > MAX_JSON) return `(${text.length} characters of JSON)`;
  return value;
}
