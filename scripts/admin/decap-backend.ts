/**
 * decap-server, Decap CMS's local backend, in its git mode, listening on a unix socket instead
 * of a TCP port: no web page can reach a socket, so the only way to it is the site's
 * /admin/api/v1, which passes on only its own editor's requests (server/admin/local-editor/,
 * docs/decisions/044-local-editor-behind-the-site.md). `npm run content` starts it
 * (scripts/lib/local-editor.ts) with GIT_REPO_DIRECTORY, the checkout it edits, and DECAP_SOCKET.
 */
import { chmodSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import express, { type Express } from "express";

const require = createRequire(import.meta.url);
// decap-server ships no types; this is the one function of its package used here.
const { registerLocalGit } = require("decap-server/dist/middlewares.js") as {
  registerLocalGit: (app: Express, options?: { logLevel?: string }) => Promise<void>;
};

const socket = process.env.DECAP_SOCKET;
if (!socket || !process.env.GIT_REPO_DIRECTORY) {
  console.error("decap-backend: set DECAP_SOCKET and GIT_REPO_DIRECTORY (npm run content sets both)");
  process.exit(1);
}
const app = express();
try {
  await registerLocalGit(app, { logLevel: process.env.LOG_LEVEL ?? "info" });
} catch (error) {
  console.error(`decap-backend: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
rmSync(socket, { force: true });
const server = app.listen(socket, () => {
  chmodSync(socket, 0o600);
  console.log(`decap-backend: listening on ${socket}`);
});
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => server.close(() => process.exit(0)));
}
