import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";
import { join } from "node:path";

export interface RunningServer {
  url: string;
  port: number;
  process: ChildProcess;
  /** Everything the server printed, stdout and stderr interleaved. */
  output: () => string;
  stop: () => Promise<void>;
}

export async function freePort(host = "127.0.0.1"): Promise<number> {
  const server = createServer();
  server.listen(0, host);
  await once(server, "listening");
  const address = server.address();
  server.close();
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

/**
 * Starts the built app the way production does (`remix-serve build/index.js`) with the given
 * environment, and resolves once `/healthz` answers.
 */
export async function startServer(
  options: { env?: Record<string, string>; cwd?: string; command?: string[] } = {},
): Promise<RunningServer> {
  const cwd = options.cwd ?? process.cwd();
  const port = await freePort();
  const command = options.command ?? [
    process.execPath,
    join(cwd, "node_modules/@remix-run/serve/dist/cli.js"),
    "build/index.js",
  ];
  const [file, ...args] = command as [string, ...string[]];
  const child = spawn(file, args, {
    cwd,
    env: {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      ...options.env,
      PORT: String(port),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const exited = once(child, "exit");
    const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`server exited with ${child.exitCode} before it was ready:\n${output}`);
    }
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) return { url, port, process: child, output: () => output, stop };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await stop();
  throw new Error(`server did not answer /healthz within 30 s:\n${output}`);
}
