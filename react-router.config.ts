import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // BUILD_DIR lets several builds sit side by side (e.g. parallel browser-test runs); server/index.ts reads it too.
  buildDirectory: process.env.BUILD_DIR ?? "build",
} satisfies Config;
