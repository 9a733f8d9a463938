export default function Home() {
  return (
    <main className="mx-auto max-w-2xl p-8">
      <h1 className="text-2xl font-semibold">Cellwright</h1>
      <p className="mt-2 text-zinc-600 dark:text-zinc-400">The API is served under /api/v1.</p>
    </main>
  );
}
