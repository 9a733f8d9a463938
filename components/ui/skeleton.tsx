export function Skeleton({ className = "" }: { className?: string }) {
  return <span aria-hidden className={`block animate-pulse rounded bg-zinc-200/80 dark:bg-zinc-800 ${className}`} />;
}
