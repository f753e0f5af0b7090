import { execFile } from "node:child_process";
import { once } from "node:events";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { type AddressInfo, createServer as createNetServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
// No browser here: the plain runner, not the page fixtures.
import { expect } from "@playwright/test";
import { postLanding } from "../support/beacons";
import { enquiryBody, validEnquiry } from "../support/enquiry-page";
import { processTest as test } from "../support/fixtures";
import { startPostgres } from "../support/postgres";
import { databaseReady, freePort, startServer } from "../support/server-process";

/**
 * Docker cannot run on our machines, so this mirrors the image instead: it reads the
 * Dockerfile's final stage and replays it on a temporary folder (copies, production-only
 * install, environment, CMD), then talks to the server it started. A change to the
 * Dockerfile that the mirror cannot follow fails here.
 */

interface Instruction {
  keyword: string;
  args: string;
}

interface Stage {
  name: string | undefined;
  instructions: Instruction[];
}

const root = process.cwd();
const workdir = "/app";

function parseDockerfile(text: string): Stage[] {
  const stages: Stage[] = [];
  const logical = text
    .replace(/\\\r?\n/g, " ")
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
  for (const line of logical) {
    const [, keyword = "", args = ""] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    const instruction = { keyword: keyword.toUpperCase(), args };
    if (instruction.keyword === "FROM") {
      stages.push({ name: /\sAS\s+(\S+)$/i.exec(args)?.[1], instructions: [] });
    }
    stages.at(-1)?.instructions.push(instruction);
  }
  return stages;
}

function parseEnv(args: string): Record<string, string> {
  return Object.fromEntries(
    [...args.matchAll(/(\w+)=("[^"]*"|\S+)/g)].map(([, k, v = ""]) => [k, v.replace(/^"|"$/g, "")]),
  );
}

const stages = parseDockerfile(readFileSync(join(root, "Dockerfile"), "utf8"));
const finalStage = stages.at(-1) as Stage;
const all = (keyword: string) => finalStage.instructions.filter((i) => i.keyword === keyword);
const one = (keyword: string) => {
  const found = all(keyword);
  expect(found, `${keyword} in the final stage`).toHaveLength(1);
  return found[0] as Instruction;
};

/** The image's Node line: an LTS line that still gets security fixes (Node 24: until April 2028). */
const NODE_IMAGE = "node:24-bookworm-slim";

test("the final stage runs unprivileged on a supported Node LTS (slim), on port 3000, with a /healthz check", () => {
  // Every stage starts from the official Node slim image of that line or from an earlier stage.
  const names: (string | undefined)[] = [];
  for (const stage of stages) {
    const image = stage.instructions[0]?.args.split(/\s+/)[0];
    expect(image === NODE_IMAGE || names.includes(image), `FROM ${image}`).toBe(true);
    names.push(stage.name);
  }
  expect(one("USER").args).toBe("node");
  expect(one("EXPOSE").args).toBe("3000");
  expect(all("ENV").reduce((env, i) => Object.assign(env, parseEnv(i.args)), {})).toMatchObject({
    NODE_ENV: "production",
    PORT: "3000",
  });
  const healthcheck = one("HEALTHCHECK").args;
  expect(healthcheck).toMatch(/^(--\S+\s+)*CMD node -e /);
  expect(healthcheck).toContain("/healthz");
  expect(healthcheck).not.toMatch(/curl|wget/);
  // Exec form: node is PID 1 and gets SIGTERM itself, no shell in between.
  expect(JSON.parse(one("CMD").args)).toEqual(["node", "build/server.js"]);
  const installs = all("RUN").filter((i) => i.args.includes("npm install"));
  expect(installs).toHaveLength(1);
  expect(installs[0]?.args).toContain("--omit=dev");
  // The lead store's folder belongs to the unprivileged user.
  expect(all("RUN").some((i) => /chown node:node \/app\/data/.test(i.args))).toBe(true);
  const keywords = finalStage.instructions.map((i) => i.keyword);
  expect(keywords.indexOf("USER")).toBeGreaterThan(keywords.lastIndexOf("RUN"));
});

test("the build context leaves out host dependencies, builds, data and secrets", () => {
  const ignored = readFileSync(join(root, ".dockerignore"), "utf8").split(/\r?\n/);
  for (const entry of ["node_modules", "build", "public/build", "data", ".env", ".git", "test-results"]) {
    expect(ignored).toContain(entry);
  }
});

test("the image's files, installed and started as its CMD starts them, serve the site", {
  tag: "@process",
}, async ({ serverNode }) => {
  test.setTimeout(300_000);
  expect(existsSync(join(root, "build/index.js")), "run `npm run build` first").toBe(true);
  const buildStages = new Set(
    stages.filter((s) => s.instructions.some((i) => i.args.includes("npm run build"))).map((s) => s.name),
  );
  const folder = mkdtempSync(join(tmpdir(), "docker-image-"));
  let env: Record<string, string> = {};
  let command: string[] = [];
  try {
    for (const { keyword, args } of finalStage.instructions) {
      if (keyword === "ENV") env = { ...env, ...parseEnv(args) };
      if (keyword === "CMD") command = JSON.parse(args);
      if (keyword === "COPY") {
        const from = /--from=(\S+)/.exec(args)?.[1];
        const parts = args.split(/\s+/).filter((part) => !part.startsWith("--"));
        const destination = parts.pop() as string;
        for (const source of parts) {
          // From the build stage: what `npm run build` made here. From the context: the file itself.
          if (from !== undefined) expect(buildStages, `COPY --from=${from}`).toContain(from);
          const relative = from === undefined ? source : source.replace(`${workdir}/`, "");
          const target = destination.endsWith("/")
            ? join(folder, destination, relative)
            : join(folder, destination);
          cpSync(join(root, relative), target, { recursive: true });
        }
      }
      if (keyword === "RUN" && args.includes("npm install")) {
        // The install the image runs, from the npm cache this machine already holds.
        await promisify(execFile)(
          "npm",
          ["install", "--omit=dev", "--no-audit", "--no-fund", "--prefer-offline"],
          {
            cwd: folder,
            env: { ...process.env, ...env },
            maxBuffer: 16 * 1024 * 1024,
          },
        );
      }
      if (keyword === "RUN") {
        for (const [, dir = ""] of args.matchAll(/mkdir -p (\/app\/\S+)/g)) {
          mkdirSync(join(folder, dir.replace(`${workdir}/`, "")), { recursive: true });
        }
      }
    }

    const modules = join(folder, "node_modules");
    // The server's own stack is installed; remix-serve is not.
    for (const dependency of ["express", "@remix-run/express", "compression"]) {
      expect(existsSync(join(modules, dependency)), `${dependency} in the image`).toBe(true);
    }
    expect(existsSync(join(modules, "@remix-run/serve")), "remix-serve in the image").toBe(false);
    // (typescript stays: npm keeps it as an optional peer of @remix-run/node, "devOptional".)
    for (const devOnly of [
      "@remix-run/dev",
      "vitest",
      "vite",
      "esbuild",
      "@playwright/test",
      "@biomejs/biome",
      "tailwindcss",
      "lighthouse",
    ]) {
      expect(existsSync(join(modules, devOnly)), `${devOnly} in the image`).toBe(false);
    }

    const [executable, ...rest] = command;
    expect(executable).toBe("node");
    // The lead store where the image keeps it: the /app/data volume.
    // The operator's npm commands run on the server's Node line too.
    const PATH = `${dirname(serverNode)}:${process.env.PATH ?? ""}`;
    const runtimeEnv = { ...env, ENQUIRY_STORE_DIR: join(folder, "data") };
    const server = await startServer({ cwd: folder, command: [serverNode, ...rest], env: runtimeEnv });
    try {
      const health = await fetch(`${server.url}/healthz`);
      expect(health.status).toBe(200);
      expect(health.headers.get("content-type")).toContain("application/json");
      expect(health.headers.get("cache-control")).toBe("no-store");
      expect(await health.json()).toMatchObject({ status: "ok" });

      const home = await fetch(`${server.url}/`);
      expect(home.status).toBe(200);
      expect(home.headers.get("content-type")).toContain("text/html");
      const html = await home.text();
      expect(html).toContain("Pioneering Purposeful Digital Products");

      // public/ is in the image: the stylesheet the page links to is served.
      const stylesheet = /<link rel="stylesheet" href="(\/build\/[^"]+\.css)"/.exec(html)?.[1];
      expect(stylesheet).toBeDefined();
      const css = await fetch(`${server.url}${stylesheet}`);
      expect(css.status).toBe(200);
      expect(await css.text()).toContain("--color-primary");

      const policy = await fetch(`${server.url}/privacy-policy`);
      expect(policy.status).toBe(200);
      expect(await policy.text()).toContain("<h1");

      // An enquiry is kept in the volume, and the operator's command in the image lists it.
      const values = validEnquiry();
      const posted = await fetch(`${server.url}/?index`, {
        method: "POST",
        body: new URLSearchParams(enquiryBody(values)),
        redirect: "manual",
      });
      expect(posted.status).toBe(303);
      const { stdout } = await promisify(execFile)("npm", ["run", "-s", "leads", "--", "--json"], {
        cwd: folder,
        env: { ...process.env, ...runtimeEnv, PATH },
      });
      expect(
        stdout
          .trim()
          .split("\n")
          .map((line) => JSON.parse(line)),
      ).toMatchObject([{ state: "inbox", name: values.name, email: values.email }]);

      // A field-metrics beacon lands in the same volume, and the image's `npm run vitals` sums it up.
      const beacon = await fetch(`${server.url}/vitals`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          route: "/privacy-policy",
          device: "desktop",
          navigationType: "navigate",
          metrics: [{ name: "LCP", value: 1234, rating: "good" }],
        }),
      });
      expect(beacon.status).toBe(202);
      // Written with the server's next batch.
      await expect
        .poll(
          async () =>
            (
              await promisify(execFile)("npm", ["run", "-s", "vitals"], {
                cwd: folder,
                env: { ...process.env, ...runtimeEnv, PATH },
              })
            ).stdout,
        )
        .toMatch(/\/privacy-policy\s+desktop\s+LCP\s+1234 ms\s+good\s+1\b/);

      // A landing's campaign is counted in the same volume, and the image's `npm run report` has it.
      const landing = await postLanding(server.url, "image");
      expect(landing.status).toBe(202);
      const campaigns = async () =>
        JSON.parse(
          (
            await promisify(execFile)("npm", ["run", "-s", "report", "--", "--json"], {
              cwd: folder,
              env: { ...process.env, ...runtimeEnv, PATH },
            })
          ).stdout,
        ).campaigns;
      // The enquiry above, from no campaign, is counted too (most enquiries first).
      await expect
        .poll(campaigns)
        .toEqual([
          expect.objectContaining({ campaign: null, visits: 0, enquiries: 1 }),
          expect.objectContaining({ campaign: "image", visits: 1, enquiries: 0 }),
        ]);

      // The HEALTHCHECK command itself passes against this server, and fails against a port
      // whose listener drops every connection (Node then had nothing left to wait for and
      // exited 0 with the fetch unsettled, most times) or never answers (Docker waits 5 s).
      const script = /CMD node -e "(.*)"$/.exec(one("HEALTHCHECK").args)?.[1] ?? "";
      const check = (port: number) =>
        promisify(execFile)(serverNode, ["-e", script], {
          env: { ...process.env, ...env, PORT: String(port) },
        }).then(
          () => "healthy",
          () => "unhealthy",
        );
      expect(await check(server.port)).toBe("healthy");
      const held = new Set<Socket>();
      for (const answer of ["drop", "never"] as const) {
        const listener = createNetServer((socket) =>
          answer === "drop" ? socket.destroy() : held.add(socket.on("error", () => {})),
        ).listen(0, "127.0.0.1");
        await once(listener, "listening");
        try {
          expect(await check((listener.address() as AddressInfo).port), answer).toBe("unhealthy");
        } finally {
          for (const socket of held) socket.destroy();
          listener.close();
        }
      }

      // `docker stop` sends SIGTERM, then SIGKILL after 10 s: with no client holding it up the
      // server must exit by itself, its drain done, not ended by its own 10 s deadline.
      const exited = once(server.process, "exit");
      server.process.kill("SIGTERM");
      expect(await exited, server.output()).toEqual([0, null]);
      expect(server.output()).not.toContain("shutdown: still busy");

      // /admin's previews render Markdown on the server, with packages the image installs itself.
      const port = await freePort();
      const origin = `http://127.0.0.1:${port}`;
      const token = "docker-image-preview-token-0123456789";
      const editing = await startServer({
        cwd: folder,
        command: [serverNode, ...rest],
        port,
        env: {
          ...runtimeEnv,
          SITE_URL: origin,
          CMS_LOCAL_SOCKET: join(folder, "no-decap.sock"),
          CMS_LOCAL_TOKEN: token,
          CMS_LOCAL_REPOSITORY: folder,
        },
      });
      try {
        const preview = await fetch(`${origin}/admin/preview/insights?token=${token}`, {
          method: "POST",
          headers: { Origin: origin, "Content-Type": "application/json" },
          body: JSON.stringify({
            slug: "in-the-image",
            data: {
              title: "In the image",
              description: "A preview.",
              author: "The test",
              date: "2026-11-20",
              body: "Some **bold** words.\n\n```js\nconst x = 1;\n```",
            },
          }),
        });
        expect(preview.status, editing.output()).toBe(200);
        const { html: previewHtml } = (await preview.json()) as { html: string };
        expect(previewHtml).toContain("<p>Some <strong>bold</strong> words.</p>");
        expect(previewHtml).toContain('<span class="hljs-keyword">const</span>');
      } finally {
        await editing.stop();
      }
    } finally {
      await server.stop();
    }

    // With DATABASE_URL the image's server migrates the database from the SQL files its build holds.
    const postgres = await startPostgres("pg-docker-image");
    try {
      const DATABASE_URL = await postgres.createDatabase();
      const replica = await startServer({
        cwd: folder,
        command: [serverNode, ...rest],
        env: { ...runtimeEnv, DATABASE_URL },
      });
      try {
        await databaseReady(replica.url);
        expect(replica.output()).toContain("database: applied migrations 1, 2");
      } finally {
        await replica.stop();
      }
    } finally {
      await postgres.dispose();
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
