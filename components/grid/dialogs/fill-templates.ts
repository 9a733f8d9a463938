// What an HTTP or waterfall column's settings start from in the column editor: a working shape to
// edit, naming placeholders the way the API reads them (docs/providers.md).

export const HTTP_TEMPLATE = {
  request: {
    method: "GET",
    url: "https://api.example.com/v1/companies?domain={{Website}}",
    headers: { Authorization: "Bearer {{secret:PROVIDER_KEY}}" },
  },
  extract: "data.employees",
  notFound: { statuses: [404] },
  credits: { found: 1, notFound: 0 },
};

/** What a new waterfall step of each kind starts from: the step as the API reads it. */
export const STEP_TEMPLATES = {
  http: {
    kind: "http",
    label: "Provider",
    request: { method: "GET", url: "https://api.example.com/v1/email?domain={{Website}}&name={{Name}}" },
    extract: "data.email",
    validate: '$contains($value, "@")',
    credits: { found: 2, notFound: 0 },
  },
  tool: {
    kind: "tool",
    label: "Pattern guess",
    tool: "email-enrichment",
    input: { name: "{{Name}}", domain: "{{Website}}" },
    minConfidence: 0.2,
  },
  ai: {
    kind: "ai",
    label: "Web search",
    instructions: "Find this person's work email address.",
    tools: ["web-search"],
    minConfidence: 0.7,
  },
  formula: {
    kind: "formula",
    label: "Formula",
    expression: '$lowercase($substringBefore(Name, " ")) & "@" & Website',
    validate: '$contains($value, "@")',
  },
} as const;

export const WATERFALL_TEMPLATE = { steps: [STEP_TEMPLATES.tool, STEP_TEMPLATES.http, STEP_TEMPLATES.ai] };

/** An HTTP column's settings as the editor shows them: its JSON without the kind. */
export function configText(fill: { kind: string } | null | undefined): string {
  if (fill?.kind === "http") {
    const { kind: _, ...rest } = fill;
    return JSON.stringify(rest, null, 2);
  }
  return JSON.stringify(HTTP_TEMPLATE, null, 2);
}

/** The HTTP fill the editor sends, or an Error naming what is wrong with the JSON. */
export function fillFromConfig(text: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new Error(`The request settings are not valid JSON: ${(e as Error).message}`);
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed))
    throw new Error("The settings are a JSON object.");
  return { ...(parsed as Record<string, unknown>), kind: "http" };
}
