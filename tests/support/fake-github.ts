/**
 * A fake GitHub on a loopback address for /admin's sign-in: its authorisation page sends the
 * browser straight back with a code, its token endpoint trades that code for a token (or answers
 * a redirect, when told to), and its API, under /api/v3 as a GitHub Enterprise server's, records
 * who calls it with which token and answers 401, but the repository's permissions to the tokens
 * it is told of (`repositories`). Also a bystander server that only records.
 */
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export const FAKE_SECRET = "fake-oauth-app-secret-0123456789abcdef";
export const FAKE_TOKEN = "gho_faketoken0123456789";
export const FAKE_CODE = "code-from-github";

async function listen(server: Server): Promise<string> {
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  let body = "";
  for await (const chunk of request) body += chunk;
  return body;
}

export interface FakeGitHub {
  url: string;
  /** CMS_GITHUB_API_ROOT for it. */
  apiRoot: string;
  server: Server;
  /** The token exchanges' bodies, as posted. */
  exchanges: Record<string, unknown>[];
  authorizations: URLSearchParams[];
  /** The API's calls: path and Authorization header. */
  apiCalls: { path: string; authorization: string | undefined }[];
  /** Where the token endpoint sends its answer instead (307), when set. */
  redirectTokenTo?: string;
  /**
   * Tokens the API knows, with whether each may push to every repository it is asked about
   * (`GET /api/v3/repos/<owner>/<name>` answers its permissions); any other token gets 401.
   */
  repositories: Map<string, { push: boolean }>;
  close: () => Promise<void>;
}

export async function fakeGitHub(): Promise<FakeGitHub> {
  const fake = {
    exchanges: [],
    authorizations: [],
    apiCalls: [],
    repositories: new Map(),
  } as unknown as FakeGitHub;
  fake.server = createServer(async (request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    if (url.pathname === "/login/oauth/authorize") {
      fake.authorizations.push(url.searchParams);
      const back = new URL(url.searchParams.get("redirect_uri") ?? "");
      back.search = new URLSearchParams({
        code: FAKE_CODE,
        state: url.searchParams.get("state") ?? "",
      }).toString();
      response.writeHead(302, { Location: back.href }).end();
      return;
    }
    if (url.pathname === "/login/oauth/access_token" && request.method === "POST") {
      const exchange = JSON.parse(await bodyOf(request)) as Record<string, unknown>;
      fake.exchanges.push(exchange);
      if (fake.redirectTokenTo) {
        response.writeHead(307, { Location: fake.redirectTokenTo }).end();
        return;
      }
      const good = exchange.client_secret === FAKE_SECRET && exchange.code === FAKE_CODE;
      response.writeHead(200, { "Content-Type": "application/json" });
      response.end(
        JSON.stringify(
          good
            ? { access_token: FAKE_TOKEN, token_type: "bearer", scope: "repo" }
            : { error: "bad_verification_code" },
        ),
      );
      return;
    }
    if (url.pathname.startsWith("/api/v3/")) {
      // The editor calls it from the site's page: a cross-origin request with a token.
      const cors = {
        "Access-Control-Allow-Origin": request.headers.origin ?? "*",
        "Access-Control-Allow-Headers": "Authorization, Content-Type",
      };
      if (request.method === "OPTIONS") {
        response.writeHead(204, cors).end();
        return;
      }
      fake.apiCalls.push({ path: url.pathname, authorization: request.headers.authorization });
      const known = fake.repositories.get(
        /^token (.+)$/.exec(request.headers.authorization ?? "")?.[1] ?? "",
      );
      const repository = /^\/api\/v3\/repos\/([^/]+\/[^/]+)$/.exec(url.pathname)?.[1];
      if (known && repository && request.method === "GET") {
        response.writeHead(200, { ...cors, "Content-Type": "application/json" });
        response.end(
          JSON.stringify({
            full_name: repository,
            permissions: { admin: false, push: known.push, pull: true },
          }),
        );
        return;
      }
      response.writeHead(401, { ...cors, "Content-Type": "application/json" });
      response.end(JSON.stringify({ message: "Bad credentials" }));
      return;
    }
    response.writeHead(404).end();
  });
  fake.url = await listen(fake.server);
  fake.apiRoot = `${fake.url}/api/v3`;
  fake.close = async () => {
    fake.server.closeAllConnections();
    fake.server.close();
  };
  return fake;
}

/** A server that answers 200 to anything and records what it was asked: where a redirect would lead. */
export async function bystander(): Promise<{ url: string; requests: string[]; close: () => Promise<void> }> {
  const requests: string[] = [];
  const server = createServer(async (request, response) => {
    requests.push(`${request.method} ${request.url} ${await bodyOf(request)}`);
    response.writeHead(200, { "Content-Type": "application/json" });
    response.end(JSON.stringify({ access_token: "gho_from_the_bystander", token_type: "bearer" }));
  });
  const url = await listen(server);
  return {
    url,
    requests,
    close: async () => {
      server.closeAllConnections();
      server.close();
    },
  };
}
