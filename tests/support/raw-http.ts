import { request as httpRequest } from "node:http";
import { connect } from "node:net";

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** One request with the bytes exactly as sent (no decoding), as a cache or a proxy sees them. */
export function raw(
  base: string | undefined,
  path: string,
  headers: Record<string, string> = {},
  method = "GET",
): Promise<RawResponse> {
  return new Promise<RawResponse>((resolve, reject) => {
    const request = httpRequest(new URL(path, base), { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
      response.on("error", reject);
    });
    request.on("error", reject);
    request.end();
  });
}

/**
 * Writes `parts` on one connection, each once the server has answered the one before (each part
 * is one write, so a part may hold several pipelined requests), and returns everything the
 * server sent back once the connection closed (or after 10 s of silence: a busy machine renders
 * a first page slowly), and whether the server ended it.
 */
export function exchange(
  port: number,
  parts: string[],
  localAddress?: string,
): Promise<{ text: string; error?: string; serverEnded: boolean }> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: "127.0.0.1", localAddress });
    const chunks: Buffer[] = [];
    let error: string | undefined;
    let serverEnded = false;
    let received = 0;
    let heard: (() => void) | undefined;
    socket.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      received += chunk.length;
      heard?.();
    });
    socket.on("end", () => {
      serverEnded = true;
    });
    socket.on("error", (cause: NodeJS.ErrnoException) => {
      error = cause.code;
    });
    socket.on("close", () => {
      heard?.();
      resolve({ text: Buffer.concat(chunks).toString("latin1"), error, serverEnded });
    });
    socket.setTimeout(10_000, () => socket.destroy());
    /** Resolves once the server sent more than `bytes` in all, or closed. */
    const answeredPast = (bytes: number) =>
      new Promise<void>((answered) => {
        heard = () => {
          if (received > bytes || socket.destroyed) answered();
        };
        heard();
      });
    void (async () => {
      let before = 0;
      for (const [index, part] of parts.entries()) {
        if (index > 0) await answeredPast(before);
        if (socket.destroyed) return;
        before = received;
        socket.write(part);
      }
    })();
  });
}

/** The status codes of the responses in what `exchange` read, in order. */
export const statusLines = (text: string) =>
  [...text.matchAll(/^HTTP\/1\.1 (\d{3}) /gm)].map((match) => Number(match[1]));
