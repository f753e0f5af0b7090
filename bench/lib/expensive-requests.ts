/**
 * The requests whose cost to the server could grow with their size, each as large as a client
 * can send (Node reads at most 16 KiB of request line and headers), and how much server time
 * each one costs: the load test's "expensive requests" run.
 */
import { readFileSync } from "node:fs";
import { Agent, request as httpRequest } from "node:http";
import { MAX_BODY_BYTES } from "~/enquiry/body.server";
import { MAX_HEAD_BYTES, MAX_TARGET_LENGTH } from "../../server/request-line";
import { publishedPages } from "./site-routes";

export interface ExpensiveRequest {
  label: string;
  /** The small request of the same kind it is read against. */
  like?: string;
  /** The status the server answers it with. */
  answer: number;
  method?: "GET" | "POST";
  path: string;
  /** A new spelling of the path for each request (numbered from 0), so no two are the same URL. */
  spelling?: (index: number) => string;
  headers?: [string, string][];
  body?: string;
}

/** Bytes of headers that fit under Node's 16 KiB limit, with room for the rest of the head. */
const HEAD_ROOM = MAX_HEAD_BYTES - 1_400;
/** The longest target the server passes on, less room for what a request adds to it. */
const LONGEST = MAX_TARGET_LENGTH - 40;

const repeat = (unit: string, length: number) => unit.repeat(Math.floor(length / unit.length));

/**
 * Spelling `index` (from 0) of `path`, never the path itself: each character `spelt` picks
 * is changed where the bits of index + 1 say (`mark` makes the change), so a flood of
 * requests is a flood of distinct URLs of one page.
 */
function respell(path: string, index: number, spelt: RegExp, mark: (character: string) => string): string {
  let bits = index + 1;
  return path.replace(spelt, (character) => {
    const changed = bits % 2 === 1 ? mark(character) : character;
    bits = Math.floor(bits / 2);
    return changed;
  });
}

/** `path` with some of its letters in upper case: the same page to a router that ignores case. */
export const caseSpelling = (path: string, index: number) =>
  respell(path, index, /[a-z]/g, (letter) => letter.toUpperCase());

/** `path` with some of its hyphens and letters percent-encoded (`%2D`): the same page, decoded. */
export const percentSpelling = (path: string, index: number) =>
  respell(
    path,
    index,
    /[a-z-]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`,
  );

/**
 * The build's version, as any visitor reads it from the home page: the inlined manifest's
 * `version` (lazy route discovery) or the name of the manifest file.
 */
export function buildVersion(html: string): string {
  const inline = /"version":\s*"([0-9a-f]+)"/.exec(html)?.[1];
  const file = /\/build\/manifest-([0-9A-Fa-f]+)\.js/.exec(html)?.[1]?.toLowerCase();
  return inline ?? file ?? "unknown";
}

/**
 * The requests measured, each with the small request it is read against (`like`) and the
 * answer the server gives it: first the small ones, `GET /` the figure every other is read
 * beside. The largest target the server passes on is measured beside one just too long; the
 * manifest request of the published attack (CVE-2026-55685) as it was found, 7.4 KB.
 */
export function expensiveRequests(version: string): ExpensiveRequest[] {
  // The longest article the content holds: what a new spelling of a page costs at most.
  const [longest] = publishedPages("insights");
  const article = longest ? `/insights/${longest.slug}` : "/insights";
  const articleLabel = `GET ${article} (shared article)`;
  const manifest = (query: string) => `/__manifest?version=${version}&${query}`;
  const paths = (count: number) => Array.from({ length: count }, (_, index) => `p=%2F${index}`).join("&");
  return [
    { label: "GET / (shared document)", path: "/", answer: 200 },
    { label: "GET /?q=1 (home rendered for one visitor)", path: "/?q=1", answer: 200 },
    { label: "GET /no-such-page (not-found page)", path: "/no-such-page", answer: 404 },
    { label: "GET /_root.data", path: "/_root.data", answer: 200 },
    { label: "GET /og-image.png (a file)", path: "/og-image.png", answer: 200 },
    { label: articleLabel, path: article, answer: 200 },
    {
      label: "the article, a new case spelling each time",
      path: caseSpelling(article, 0),
      spelling: (index) => caseSpelling(article, index),
      like: articleLabel,
      answer: 301,
    },
    {
      label: "the article, a new percent-encoding each time",
      path: percentSpelling(article, 0),
      spelling: (index) => percentSpelling(article, index),
      like: articleLabel,
      answer: 301,
    },
    {
      label: "the article with a trailing slash",
      path: `${article}/`,
      like: articleLabel,
      answer: 301,
    },
    {
      label: "GET /insights/page/1?gclid=… (a redirect)",
      path: "/insights/page/1?gclid=A1b2C3",
      like: articleLabel,
      answer: 301,
    },
    {
      label: "manifest, one p of 3,700 segments",
      path: manifest(`p=${repeat("/a", 7_400)}`),
      like: "GET /no-such-page (not-found page)",
      answer: 414,
    },
    {
      label: "manifest, one p of 2,000 segments",
      path: manifest(`p=${repeat("/a", LONGEST - 40)}`),
      like: "GET /no-such-page (not-found page)",
      answer: 404,
    },
    {
      label: "manifest, 400 p",
      path: manifest(paths(400)),
      like: "GET /no-such-page (not-found page)",
      answer: 404,
    },
    {
      label: "not-found page, path of 2,000 segments",
      path: repeat("/a", LONGEST),
      like: "GET /no-such-page (not-found page)",
      answer: 404,
    },
    {
      label: "not-found page, path just too long",
      path: repeat("/a", MAX_TARGET_LENGTH + 2),
      like: "GET /no-such-page (not-found page)",
      answer: 414,
    },
    {
      label: "single fetch, path of 2,000 segments",
      path: `${repeat("/a", LONGEST)}.data`,
      like: "GET /_root.data",
      answer: 404,
    },
    {
      label: "single fetch, 225 route ids in _routes",
      path: `/_root.data?_routes=${repeat("routes%2F_index%2C", LONGEST)}`,
      like: "GET /_root.data",
      answer: 200,
    },
    {
      label: "home, 1,000 query parameters",
      path: `/?${repeat("q=1&", LONGEST)}`,
      like: "GET /?q=1 (home rendered for one visitor)",
      answer: 200,
    },
    {
      label: "home, 500 tracking parameters",
      path: `/?${repeat("utm_a=1&", LONGEST)}`,
      like: "GET / (shared document)",
      answer: 200,
    },
    {
      label: "home, 900 headers",
      path: "/",
      headers: Array.from({ length: 900 }, (_, index) => [`x-${index}`, "1"]),
      like: "GET / (shared document)",
      answer: 200,
    },
    {
      label: "home, headers just too large",
      path: "/",
      headers: [["cookie", repeat("a=1; ", MAX_HEAD_BYTES)]],
      like: "GET / (shared document)",
      answer: 431,
    },
    {
      label: "home, a 15 KB cookie",
      path: "/",
      headers: [["cookie", repeat("a=1; ", HEAD_ROOM)]],
      like: "GET / (shared document)",
      answer: 200,
    },
    {
      label: "home, 880 ETags in If-None-Match",
      path: "/",
      headers: [["if-none-match", repeat('"0123456789abc", ', HEAD_ROOM)]],
      like: "GET / (shared document)",
      answer: 200,
    },
    {
      label: "home, a 15 KB Accept-Encoding",
      path: "/",
      headers: [["accept-encoding", repeat("x;q=0.5, ", HEAD_ROOM)]],
      like: "GET / (shared document)",
      answer: 200,
    },
    {
      label: "a file, 1,500 byte ranges",
      path: "/og-image.png",
      headers: [
        [
          "range",
          `bytes=${Array.from({ length: 1_500 }, (_, index) => `${index * 2}-${index * 2}`).join(",")}`,
        ],
      ],
      like: "GET /og-image.png (a file)",
      answer: 200,
    },
    {
      label: "an enquiry of 16 KiB of fields",
      method: "POST",
      path: "/?index",
      headers: [["content-type", "application/x-www-form-urlencoded"]],
      body: repeat("a=1&", MAX_BODY_BYTES),
      like: "GET /?q=1 (home rendered for one visitor)",
      answer: 303,
    },
  ];
}

/** Nanoseconds the server's main thread (its event loop) has run on a CPU, or null off Linux. */
function mainThreadNs(pid: number): number | null {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, "utf8").split(" ")[0]);
  } catch {
    return null;
  }
}

function send(
  agent: Agent,
  origin: URL,
  spec: ExpensiveRequest,
  index: number,
): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        agent,
        host: origin.hostname,
        port: origin.port,
        method: spec.method ?? "GET",
        path: spec.spelling?.(index) ?? spec.path,
        headers: [
          "host",
          origin.host,
          ...(spec.headers?.some(([name]) => name === "accept-encoding")
            ? []
            : ["accept-encoding", "gzip, br"]),
          ...(spec.headers ?? []).flat(),
          ...(spec.body === undefined ? [] : ["content-length", String(Buffer.byteLength(spec.body))]),
        ],
      },
      (response) => {
        response.resume();
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, ms: performance.now() - started }),
        );
      },
    );
    request.setTimeout(60_000, () => request.destroy(new Error("no answer within 60 s")));
    request.on("error", reject);
    request.end(spec.body);
  });
}

export interface Measured {
  label: string;
  bytes: number;
  status: string;
  count: number;
  medianMs: number;
  /** The server's main-thread CPU time per request (null where /proc is not readable). */
  cpuMs: number | null;
}

/**
 * Sends `spec` one at a time over one keep-alive connection, after one unmeasured request, for
 * `seconds` or `most` requests (at least one): the median time to the last byte over the
 * loopback, and the CPU time of the server's main thread per request, which other processes'
 * load on the machine does not inflate as it does the former.
 */
export async function measure(
  url: string,
  pid: number,
  spec: ExpensiveRequest,
  { seconds = 2, most = 200 } = {},
): Promise<Measured> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const origin = new URL(url);
  try {
    const statuses = new Set<number>();
    statuses.add((await send(agent, origin, spec, 0)).status);
    const times: number[] = [];
    const cpuBefore = mainThreadNs(pid);
    const deadline = performance.now() + seconds * 1000;
    while (times.length < most && (times.length === 0 || performance.now() < deadline)) {
      const { status, ms } = await send(agent, origin, spec, times.length + 1);
      statuses.add(status);
      times.push(ms);
    }
    const cpuAfter = mainThreadNs(pid);
    const sorted = [...times].sort((a, b) => a - b);
    const bytes =
      spec.path.length +
      (spec.headers ?? []).reduce((sum, [name, value]) => sum + name.length + value.length + 4, 0) +
      (spec.body?.length ?? 0);
    return {
      label: spec.label,
      bytes,
      status: [...statuses].join(","),
      count: times.length,
      medianMs: sorted[Math.floor(sorted.length / 2)] ?? 0,
      cpuMs: cpuBefore === null || cpuAfter === null ? null : (cpuAfter - cpuBefore) / 1e6 / times.length,
    };
  } finally {
    agent.destroy();
  }
}
