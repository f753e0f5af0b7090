// A stand-in for the EmailJS API for the load test: HTTPS with a throw-away self-signed
// certificate (openssl) on a loopback address, port 443 (needs root), recording every send.
// The interface matches what the load test expects of tests/support/fake-emailjs.ts.
import { execFileSync } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface ReceivedEmail {
  service_id?: string;
  template_id?: string;
  user_id?: string;
  accessToken?: string;
  template_params?: Record<string, string>;
}

export interface FakeEmailJsBehaviour {
  /** Milliseconds before answering each send. */
  delayMs?: number;
  /** Status of every answer: 200 accepts the e-mail, anything else fails it. */
  status?: number;
}

export interface FakeEmailJs {
  /** Value for EMAILJS_ORIGIN. */
  host: string;
  /** PEM certificate to trust: value for NODE_EXTRA_CA_CERTS. */
  caFile: string;
  /** Sends answered with 200, in arrival order. */
  received: ReceivedEmail[];
  configure(behaviour: FakeEmailJsBehaviour): void;
  stop(): Promise<void>;
}

export async function startFakeEmailJs(
  options: { host?: string } & FakeEmailJsBehaviour = {},
): Promise<FakeEmailJs> {
  const host = options.host ?? "127.0.0.3";
  const dir = mkdtempSync(join(tmpdir(), "fake-emailjs-"));
  const keyFile = join(dir, "key.pem");
  const caFile = join(dir, "cert.pem");
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-days",
      "1",
      "-keyout",
      keyFile,
      "-out",
      caFile,
      "-subj",
      `/CN=${host}`,
      "-addext",
      `subjectAltName=IP:${host}`,
    ],
    { stdio: "ignore" },
  );
  let behaviour: Required<FakeEmailJsBehaviour> = {
    delayMs: options.delayMs ?? 0,
    status: options.status ?? 200,
  };
  const received: ReceivedEmail[] = [];
  const server = createServer(
    { key: readFileSync(keyFile), cert: readFileSync(caFile) },
    (request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const { delayMs, status } = behaviour;
        setTimeout(() => {
          if (request.method !== "POST" || request.url !== "/api/v1.0/email/send") {
            response.writeHead(404).end("Not Found");
            return;
          }
          if (status === 200) {
            try {
              received.push(JSON.parse(Buffer.concat(chunks).toString("utf8")) as ReceivedEmail);
            } catch {
              response.writeHead(400).end("Bad JSON");
              return;
            }
          }
          response
            .writeHead(status, { "Content-Type": "text/plain" })
            .end(status === 200 ? "OK" : "Server Error");
        }, delayMs);
      });
    },
  );
  server.listen(443, host);
  await once(server, "listening");
  return {
    host,
    caFile,
    received,
    configure(next) {
      behaviour = { ...behaviour, ...next };
    },
    async stop() {
      server.closeAllConnections();
      server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
