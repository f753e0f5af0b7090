/**
 * A minimal node:http server answering every request with one captured response (status,
 * headers and body bytes): the ceiling the bench compares the app against.
 * Usage: node static-server.js <capture.json> ; prints "listening <port>" when ready.
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";

const capture = JSON.parse(readFileSync(process.argv[2] ?? "", "utf8"));
const body = Buffer.from(capture.body, "base64");
const headers = { ...capture.headers, "content-length": String(body.length) };
const server = createServer((_request, response) => {
  response.writeHead(capture.status, headers);
  response.end(body);
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  console.log(`listening ${typeof address === "object" && address ? address.port : 0}`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
