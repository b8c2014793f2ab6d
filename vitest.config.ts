import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: [
            "app/**/*.test.{ts,tsx}",
            "server/**/*.test.ts",
            "scripts/**/*.test.ts",
            "eslint/**/*.test.ts",
          ],
          exclude: ["**/*.integration.test.{ts,tsx}"],
          environment: "node",
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: [
            "app/**/*.integration.test.{ts,tsx}",
            "server/**/*.integration.test.ts",
            "tests/integration/**/*.test.ts",
          ],
          environment: "node",
          // One throwaway PostgreSQL cluster for the run; each test file gets its own databases.
          globalSetup: ["tests/support/postgres-global-setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          env: { NODE_ENV: "test" },
        },
      },
    ],
  },
});
