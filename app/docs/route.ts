import { ApiReference } from "@scalar/nextjs-api-reference";

// The API reference, rendered in the browser by Scalar from the generated OpenAPI document. Its
// script is served from this server (/docs/scalar.js), so the page works with no internet.
export const GET = ApiReference({
  url: "/api/v1/openapi.json",
  cdn: "/docs/scalar.js",
  pageTitle: "Cellwright API",
  withDefaultFonts: false,
  hideClientButton: true,
  // Hosted features (AI chat, deploy, share) need Scalar's services: off for a self-hosted server.
  showDeveloperTools: "never",
  agent: { disabled: true },
  mcp: { disabled: true },
});
