/** A real HTTPS fake of the EmailJS API that records the sends and answers as a test tells it. */
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { selfSignedCertificate } from "./certificates";

/** How the fake answers the next sends: EmailJS's own 200 'OK' (after an optional delay), an error status, or never. */
export type FakeResponse =
  | { kind: "ok"; delayMs?: number }
  | { kind: "status"; status: number; text: string }
  | { kind: "hang" };

export interface RecordedRequest {
  method: string;
  path: string;
  contentType: string | undefined;
  body: unknown;
  /** The status it was answered with; null while it hangs. */
  status: number | null;
}

export interface FakeEmailJs {
  /** The host name to give the app as EMAILJS_ORIGIN. */
  host: string;
  /** The port it listens on, a free one: a server under test reaches it through emailJsEnv's preload. */
  port: number;
  /** The self-signed certificate to give the app as NODE_EXTRA_CA_CERTS. */
  certificatePath: string;
  requests: RecordedRequest[];
  respondWith(response: FakeResponse): void;
  /** Forgets recorded requests and answers 200 'OK' again. */
  reset(): void;
  close(): Promise<void>;
}

/**
 * A real HTTPS fake of the EmailJS API on a free port of `host`, with a certificate for that
 * address made with openssl at start. The SDK only speaks HTTPS to port 443 of a host name:
 * a server started with `emailJsEnv` has its connections to `host`:443 sent to this port.
 * `FAKE_EMAILJS_HOST` moves the default loopback address, so two checkouts can run their
 * browser tests side by side.
 */
export async function startFakeEmailJs(
  host = process.env.FAKE_EMAILJS_HOST ?? "127.0.0.2",
): Promise<FakeEmailJs> {
  const folder = mkdtempSync(join(tmpdir(), "fake-emailjs-"));
  const { certificatePath, keyPath } = selfSignedCertificate(folder, host, [`subjectAltName=IP:${host}`]);

  const requests: RecordedRequest[] = [];
  let response: FakeResponse = { kind: "ok" };
  const sockets = new Set<Socket>();
  const server: Server = createServer(
    { cert: readFileSync(certificatePath), key: readFileSync(keyPath) },
    (request, reply) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // keep the raw text: a test will show it
        }
        const current = response;
        requests.push({
          method: request.method ?? "",
          path: request.url ?? "",
          contentType: request.headers["content-type"],
          body,
          status: current.kind === "hang" ? null : current.kind === "ok" ? 200 : current.status,
        });
        if (current.kind === "hang") return;
        const [status, statusText] = current.kind === "ok" ? [200, "OK"] : [current.status, current.text];
        const answer = () => reply.writeHead(status, { "Content-Type": "text/plain" }).end(statusText);
        if (current.kind === "ok" && current.delayMs) setTimeout(answer, current.delayMs);
        else answer();
      });
    },
  );
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  server.listen(0, host);
  await once(server, "listening");
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("the fake EmailJS has no port");

  return {
    host,
    port: address.port,
    certificatePath,
    requests,
    respondWith(next) {
      response = next;
    },
    reset() {
      requests.length = 0;
      response = { kind: "ok" };
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** The EmailJS ids test servers get; the fake checks nothing, the tests check what it received. */
export const EMAILJS_KEYS = {
  EMAILJS_SERVICE_ID: "service_nirmaan",
  EMAILJS_TEMPLATE_ID: "template_enquiry",
  EMAILJS_PUBLIC_KEY: "public-key-4f2a",
  EMAILJS_PRIVATE_KEY: "private-key-9c1e-secret",
};

/** Preloaded into the server under test: sends its connections to the fake's host on 443 to the fake's port. */
const REDIRECT_PRELOAD = new URL("./emailjs-redirect.js", import.meta.url).href;

/**
 * What a server needs to reach `fake` as it would EmailJS, by host name on port 443 over
 * verified TLS: the host, the certificate, and the preload that redirects the connection.
 */
export function emailJsEnv(fake: FakeEmailJs): Record<string, string> {
  return {
    EMAILJS_ORIGIN: fake.host,
    NODE_EXTRA_CA_CERTS: fake.certificatePath,
    NODE_OPTIONS: `--import=${REDIRECT_PRELOAD}`,
    FAKE_EMAILJS_ADDRESS: `${fake.host}:${fake.port}`,
  };
}

/**
 * The environment of a server that delivers to `fake` from `storeDir`, with no per-client
 * limit and a 50 ms pacing (1 s in production), so bursts deliver fast.
 */
export function emailJsAppEnv(fake: FakeEmailJs, storeDir: string): Record<string, string> {
  return {
    ...EMAILJS_KEYS,
    ...emailJsEnv(fake),
    ENQUIRY_RATE_LIMIT: "0",
    ENQUIRY_STORE_DIR: storeDir,
    ENQUIRY_SEND_INTERVAL_MS: "50",
  };
}
