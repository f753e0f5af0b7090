import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Read by vitest and by vite-node, which runs `npm run bench`, `bench:enquiry` and `load-test`:
// both need the `~/` alias of app/ (Remix's classic compiler reads remix.config.js, not this).
export default defineConfig({
  resolve: {
    alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) },
  },
  test: {
    include: ["tests/unit/**/*.test.ts", "tests/unit/**/*.test.tsx"],
    environment: "node",
  },
});
