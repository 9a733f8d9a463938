import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Test suites build into their own directory so that parallel builds never collide.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  // PGlite ships WebAssembly and data files it loads from its own package directory, and the
  // Prisma runtime loads its query compiler the same way: they must not be bundled.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "pglite-prisma-adapter",
    "@prisma/client",
    "@prisma/adapter-pg",
    "pg",
    "linkedom",
    "unpdf",
    "mammoth",
    "exceljs",
    "unzipper",
    "piscina",
  ],
  poweredByHeader: false,
  typescript: { tsconfigPath: "tsconfig.json" },
};

export default nextConfig;
