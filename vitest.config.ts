import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

export default defineConfig({
  resolve: {
    alias: {
      "@": fileURLToPath(new URL("./", import.meta.url)),
      // "server-only" throws outside Next's react-server bundle; unit tests import server modules directly.
      "server-only": fileURLToPath(new URL("./test/empty.ts", import.meta.url)),
    },
  },
  test: {
    environment: "node",
    include: ["lib/**/*.test.ts", "scripts/**/*.test.ts", "test/**/*.test.ts", "app/**/*.test.ts", "components/**/*.test.ts", "components/**/*.test.tsx"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // next-auth imports "next/server" without an extension, which Node's ESM resolver refuses (next has no exports map)
    server: { deps: { inline: ["next-auth"] } },
  },
});
