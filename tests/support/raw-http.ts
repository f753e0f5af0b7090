import { readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { connect, type Socket } from "node:net";
import { expect } from "@playwright/test";

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

/** `127.0.0.1:port` as /proc/net/tcp writes it. */
const procAddress = (port: number) => `0100007F:${port.toString(16).toUpperCase().padStart(4, "0")}`;

/**
 * The bytes the kernel holds for the established TCP connection from `localPort` to
 * `remotePort` on 127.0.0.1 (Linux): sent and not yet acknowledged (`unacked`), received and
 * not yet read by its process (`unread`); undefined when there is no such connection.
 */
function tcpQueues(localPort: number, remotePort: number): { unacked: number; unread: number } | undefined {
  const [local, remote] = [procAddress(localPort), procAddress(remotePort)];
  for (const line of readFileSync("/proc/net/tcp", "utf8").split("\n").slice(1)) {
    const [, address, peer, state, queues = ""] = line.trim().split(/\s+/);
    if (address !== local || peer !== remote || state !== "01") continue;
    const [unacked = Number.NaN, unread = Number.NaN] = queues
      .split(":")
      .map((hex) => Number.parseInt(hex, 16));
    return { unacked, unread };
  }
  return undefined;
}

/**
 * Writes `bytes` on `socket` (a connection to a server on 127.0.0.1) and resolves once the
 * server's process has read them: the kernel holds none of them unacknowledged on the client's
 * side, nor unread on the server's. Node parses what it reads at once, so a request begun in
 * them is then in flight (the server no longer counts the connection as idle).
 */
export async function writeReadByServer(socket: Socket, bytes: string): Promise<void> {
  await new Promise<void>((resolve, reject) =>
    socket.write(bytes, (error) => (error ? reject(error) : resolve())),
  );
  const { localPort = 0, remotePort = 0 } = socket;
  await expect
    .poll(
      () => {
        const client = tcpQueues(localPort, remotePort);
        const server = tcpQueues(remotePort, localPort);
        return client?.unacked === 0 && server?.unread === 0;
      },
      { message: `the server read what was sent on port ${localPort}` },
    )
    .toBe(true);
}
