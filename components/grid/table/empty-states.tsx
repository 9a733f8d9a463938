import Link from "next/link";
import { Skeleton } from "../../ui/skeleton";

export function EmptyRows({ reviewOnly, narrowed }: { reviewOnly: boolean; narrowed: boolean }) {
  const [title, text] = reviewOnly
    ? [
        "Nothing needs review",
        "No AI cell has failed, fallen under its column's review threshold, or gone out of date.",
      ]
    : narrowed
      ? ["No matching rows", "No row matches the filter and search. Remove a condition or clear the search."]
      : [
          "No rows yet",
          "Add a row, or click the grid and paste rows copied from a spreadsheet (Ctrl+V / ⌘V). A first line of column names is used as the header.",
        ];
  return (
    <div className="flex h-full flex-col items-center justify-center gap-1 px-6 text-center">
      <p className="font-medium text-zinc-800 dark:text-zinc-200">{title}</p>
      <p className="max-w-md text-sm text-zinc-600 dark:text-zinc-400">{text}</p>
    </div>
  );
}

export function GridSkeleton() {
  return (
    <div role="status" aria-busy="true" aria-label="Loading the table" className="space-y-px p-0">
      {Array.from({ length: 12 }, (_, i) => (
        <div
          key={i}
          className="flex h-9 items-center gap-4 border-b border-zinc-200 bg-white px-3 dark:border-zinc-800 dark:bg-zinc-900"
        >
          <Skeleton className="h-3 w-6" />
          <Skeleton className="h-3 w-40" />
          <Skeleton className="h-3 w-56" />
          <Skeleton className="h-3 w-32" />
        </div>
      ))}
    </div>
  );
}

/** A base id that names no base here (deleted, or another workspace's). */
export function BaseNotFound() {
  return (
    <main className="flex flex-1 flex-col items-center justify-center gap-3 p-8 text-center">
      <h2 className="text-lg font-semibold">This base does not exist</h2>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        It may have been deleted, or it belongs to another workspace.
      </p>
      <Link href="/" className="text-sm font-medium text-indigo-600 hover:underline dark:text-indigo-400">
        Back to bases
      </Link>
    </main>
  );
}
