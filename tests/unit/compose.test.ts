import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { guideNginxBlock } from "../support/nginx-guide";

const nginx = readFileSync("deploy/nginx.conf", "utf8");
const compose = readFileSync("compose.yaml", "utf8");

interface ComposeFile {
  services: Record<string, { build?: string; volumes?: string[] }>;
  volumes?: Record<string, unknown>;
}
/** compose.yaml as Docker Compose reads it, the `<<: *site` merge keys applied. */
const composed = parse(compose, { merge: true }) as ComposeFile;

/** The settings of a piece of nginx configuration: its lines without comments, blank lines or braces alone. */
function settings(text: string): string[] {
  return text
    .split("\n")
    .map((line) => line.replace(/\s+#.*$/, "").trim())
    .filter((line) => line !== "" && !line.startsWith("#") && line !== "}");
}

describe("compose.yaml and deploy/nginx.conf", () => {
  it("proxy, cache and key every request as docs/deploying.md's nginx does", () => {
    const block = guideNginxBlock();
    const location = /location \/ \{\n([\s\S]*?)\n {4}\}/.exec(block)?.[1] ?? "";
    const map = /map \$args[\s\S]*?\n\}/.exec(block)?.[0] ?? "";
    const cachePath = block.split("\n").find((line) => line.startsWith("proxy_cache_path")) ?? "";
    const expected = [...settings(location), ...settings(map), cachePath];
    expect(expected.length).toBeGreaterThan(10);
    const ours = new Set(settings(nginx));
    expect(expected.filter((line) => !ours.has(line))).toEqual([]);
  });

  it("trusts X-Forwarded-For from nginx's own address only", () => {
    const trusted = /TRUST_PROXY: (\S+)/.exec(compose)?.[1];
    const nginxAddress = /ipv4_address: (\S+)/.exec(compose)?.[1];
    expect(trusted).toBeDefined();
    expect(trusted).toBe(nginxAddress);
  });

  it("gives each replica a named data volume of its own, so its spool outlives `docker compose down`", () => {
    const replicas = Object.entries(composed.services).filter(([, service]) => service.build === ".");
    expect(replicas.length).toBeGreaterThanOrEqual(2);
    const dataVolumes = replicas.map(([name, service]) => {
      const mount = (service.volumes ?? []).find((volume) => volume.endsWith(":/app/data"));
      return { name, volume: mount?.slice(0, -":/app/data".length) };
    });
    for (const { volume } of dataVolumes) {
      expect(volume).toBeDefined();
      expect(Object.keys(composed.volumes ?? {})).toContain(volume);
    }
    expect(new Set(dataVolumes.map(({ volume }) => volume)).size).toBe(replicas.length);
  });
});
