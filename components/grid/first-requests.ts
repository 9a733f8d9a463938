import { basePath, structurePath } from "../data/api";

// The requests a base's grid makes first. The page preloads them, so the browser fetches them
// while it loads and runs the scripts; the grid's own fetch() then takes the preloaded answers.
// Preload and fetch match only by the exact URL, so both build it here.

/** The first page of rows is small, so the grid paints at once; larger pages follow. */
export const FIRST_PAGE = 300;

export const rowsPagePath = (baseId: string, limit: number, cursor?: string) =>
  `${basePath(baseId)}/rows?expand=true&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;

/** With no filter, sort or search in the page's URL, the grid begins with these GETs. */
export const firstRequests = (baseId: string): string[] => [basePath(baseId), structurePath(baseId), rowsPagePath(baseId, FIRST_PAGE)];
