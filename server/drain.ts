/**
 * The server's graceful stop on SIGTERM or SIGINT: finish the requests in flight, then exit before
 * a deadline.
 */
import type { Server, ServerResponse } from "node:http";

/**
 * SIGTERM or SIGINT: the server stops accepting connections, health checks turn 503, every
 * further response says `Connection: close`, idle keep-alive connections close, requests in
 * flight finish, `stop` ends the services' work; the process exits 0 once all of that is
 * done, and at `deadlineMs` whatever clients do (a half-sent request, a busy keep-alive client).
 * It logs when it begins and when it exits, with the milliseconds since the signal.
 */
export function createDrain(options: {
  server: Server;
  deadlineMs: number;
  /** Ends the services' work; `answered` resolves once every request has been answered and its connection closed. */
  stop: (answered: Promise<void>) => Promise<void>;
  log?: (line: string) => void;
  exit?: (code: number) => void;
}) {
  const { server, deadlineMs, stop, log = console.error, exit = (code) => process.exit(code) } = options;
  const inFlight = new Set<ServerResponse>();
  let draining = false;
  return {
    draining: () => draining,
    /** Counts a response in flight; once draining, its connection is closed when it is done. */
    track(response: ServerResponse): void {
      inFlight.add(response);
      response.once("close", () => inFlight.delete(response));
      response.once("finish", () => {
        if (draining) setImmediate(() => server.closeIdleConnections());
      });
    },
    begin(signal: NodeJS.Signals = "SIGTERM"): void {
      if (draining) return;
      draining = true;
      const began = performance.now();
      const since = () => `${Math.round(performance.now() - began)} ms after ${signal}`;
      setTimeout(() => {
        log(
          `shutdown: still busy after ${deadlineMs / 1000} s (${inFlight.size} unanswered request(s), or a client that never finished its request); exiting ${since()}`,
        );
        exit(0);
      }, deadlineMs).unref();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // Logged once the listener is closed: whoever reads it finds the port refusing.
      log(
        `shutdown: ${signal}: draining, no new connections, ${inFlight.size} request(s) in flight; exiting when they are done, at ${deadlineMs / 1000} s at the latest`,
      );
      void Promise.allSettled([closed, stop(closed)]).then(() => {
        log(`shutdown: done; exiting ${since()}`);
        exit(0);
      });
    },
  };
}
