// Example request bodies of the OpenAPI document, by "METHOD path". Each one is checked against
// its endpoint's body schema by test/api/openapi.test.ts, so an example cannot drift.

export const REQUEST_EXAMPLES: Record<string, unknown> = {
  "POST /api/v1/bases": {
    baseName: "Companies",
    columns: [
      { name: "Company", type: "short-text", isPrimary: true },
      { name: "Website", type: "url" },
      {
        name: "Summary",
        type: "long-text",
        isAiEnabled: true,
        inputColumns: ["Company", "Website"],
        tools: ["scrape-url"],
        instructions: "Two sentences on what the company does.",
      },
    ],
  },
  "POST /api/v1/bases/{baseId}/add-rows": { rows: [{ cells: { Company: "Acme", Website: "acme.com" } }] },
  "POST /api/v1/bases/{baseId}/update-rows": {
    rows: [{ id: "sr_0123456789abcdefghij", cells: { Website: "acme.org" } }],
  },
  "POST /api/v1/bases/{baseId}/delete-rows": { rowIds: ["sr_0123456789abcdefghij"] },
  "POST /api/v1/bases/{baseId}/columns": {
    name: "Industry",
    type: "short-text",
    isAiEnabled: true,
    inputColumns: ["Website"],
    tools: ["web-search"],
    instructions: "The company's industry, in two words.",
  },
  "POST /api/v1/bases/{baseId}/run": { columnIds: ["scol_0123456789abcdefghij"], onlyEmpty: true },
  "POST /api/v1/bases/{baseId}/run/estimate": { onlyEmpty: true },
  "POST /api/v1/bases/ai-configure-base": {
    baseName: "Leads",
    messages: [{ role: "user", content: "A table of companies with their website, industry and a one-line summary." }],
  },
  "POST /api/v1/bases/{baseId}/finds": {
    query: "B2B software companies in Berlin with 50–200 employees",
    criteria: ["Based in Berlin", "Sells to businesses", "Has 50 to 200 employees"],
    count: 25,
    preview: true,
  },
  "POST /api/v1/webhooks": { url: "https://example.com/cellwright", events: ["row.sheet.processed"] },
  "POST /api/v1/api-keys": { name: "CI" },
};
