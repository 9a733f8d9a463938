import Link from "next/link";

export default function NotFound() {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-3 p-8 text-center">
      <h1 className="text-xl font-semibold">Page not found</h1>
      <Link href="/" className="text-sm font-medium text-indigo-600 hover:underline dark:text-indigo-400">
        Back to bases
      </Link>
    </main>
  );
}
