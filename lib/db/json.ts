// A json or jsonb column arrives parsed from one driver and as text from another (a json_agg
// inside a raw query, for instance); callers read it the same way either way.
export const parsed = <T>(v: unknown): T => (typeof v === "string" ? JSON.parse(v) : v) as T;
