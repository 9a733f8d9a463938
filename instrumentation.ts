// Next.js calls register() once when the server process starts: the database is migrated,
// API_KEY is seeded and the background workers start before the first request.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { boot } = await import("./lib/boot");
  await boot();
}
