// A formula's bounds, in a module of their own: the column schemas name them, and must not load
// the expression language with them (the server's edge reads the schemas).
export const FORMULA_LIMITS = { chars: 4_000, depth: 200, evaluationMs: 50 } as const;
