/**
 * One shared document's bytes in every coding, with its ETag, and the answer (200 or 304) to a
 * request for it.
 */
import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import { CACHE_CONTROL } from "~/http/cache-control";
import { hashedContentSecurityPolicy } from "~/http/security.server";
import {
  type ContentEncoding,
  contentEncodings,
  ifNoneMatchIncludes,
  negotiateEncoding,
} from "./negotiation.server";
import { inlineScriptHashes } from "./script-hashes.server";

/**
 * What the bytes depend on besides the URL: the coding alone. Cookies do not count (the site
 * reads none; a sender's notice travels in the URL), so a cache need not key on them.
 */
export const sharedVary = "Accept-Encoding";

/**
 * The compression levels of a miss, chosen so that compressing costs no more than rendering
 * (docs/decisions/043-one-spelling-per-page.md): on an 88 KB home page brotli 5 takes 2 ms
 * against 340 ms for 11 (15.4 KB against 13.5 KB), on 200 KB of prose 14 ms against 1.5 s.
 */
const BROTLI_QUALITY = 5;
const GZIP_LEVEL = 6;

/** Headers that describe one coding's body, left out of a 304 (it has none). */
const bodyHeaders = new Set(["content-length", "content-encoding", "content-type"]);

interface Representation {
  body: Uint8Array<ArrayBuffer>;
  /** The 200's headers, lower-case names as node:http writes them. */
  headers: Record<string, string>;
  /** The 304's headers. */
  notModifiedHeaders: Record<string, string>;
  etag: string;
}

export interface SharedAnswer {
  status: 200 | 304;
  headers: Record<string, string>;
  /** null for a 304 and for HEAD. */
  body: Uint8Array<ArrayBuffer> | null;
}

export interface SharedRequest {
  method: string;
  acceptEncoding?: string | null;
  ifNoneMatch?: string | null;
}

/**
 * A document that is the same bytes for every visitor of one build and configuration: its
 * CSP allows its own inline scripts by hash, and it is stored once in each coding with a
 * strong ETag per coding (a hash of that coding's bytes).
 */
export class SharedDocument {
  private constructor(private readonly representations: Record<ContentEncoding, Representation>) {}

  /**
   * `html` must hold no nonce; `headers` are the document's headers (type and security
   * headers): its CSP, caching, validator and coding headers are set here.
   */
  static async create(html: string, headers: Headers): Promise<SharedDocument> {
    const common: Record<string, string> = {};
    for (const [name, value] of headers) common[name] = value;
    common["content-security-policy"] = hashedContentSecurityPolicy(inlineScriptHashes(html));
    common["cache-control"] = CACHE_CONTROL.shared;
    common.vary = sharedVary;
    for (const name of ["content-length", "content-encoding", "etag", "set-cookie"]) delete common[name];

    const identity = Buffer.from(html, "utf8");
    const [br, gz] = await Promise.all([
      brotli(identity, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
        },
      }),
      gzipAsync(identity, { level: GZIP_LEVEL }),
    ]);
    const bodies: Record<ContentEncoding, Buffer> = { br, gzip: gz, identity };
    const representations = Object.fromEntries(
      contentEncodings.map((encoding) => [encoding, represent(bodies[encoding], encoding, common)]),
    ) as Record<ContentEncoding, Representation>;
    return new SharedDocument(representations);
  }

  /** The answer to a GET or HEAD: the coding the client prefers, 304 when its copy is current. */
  answer({ method, acceptEncoding, ifNoneMatch }: SharedRequest): SharedAnswer {
    const representation = this.representations[negotiateEncoding(acceptEncoding)];
    if (ifNoneMatchIncludes(ifNoneMatch, representation.etag)) {
      return { status: 304, headers: representation.notModifiedHeaders, body: null };
    }
    return {
      status: 200,
      headers: representation.headers,
      body: method === "HEAD" ? null : representation.body,
    };
  }

  etag(encoding: ContentEncoding): string {
    return this.representations[encoding].etag;
  }
}

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

function represent(body: Buffer, encoding: ContentEncoding, common: Record<string, string>): Representation {
  const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 32)}"`;
  const headers: Record<string, string> = { ...common, etag, "content-length": String(body.length) };
  if (encoding !== "identity") headers["content-encoding"] = encoding;
  const notModifiedHeaders = Object.fromEntries(
    Object.entries(headers).filter(([name]) => !bodyHeaders.has(name)),
  );
  // A copy on its own ArrayBuffer: what both a web Response and node:http take as a body.
  return { body: new Uint8Array(body), headers, notModifiedHeaders, etag };
}
