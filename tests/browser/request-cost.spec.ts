import { expect } from "@playwright/test";
import { buildVersion, expensiveRequests, type Measured, measure } from "../../bench/lib/expensive-requests";
import { processTest, test } from "../support/fixtures";
import { raw } from "../support/raw-http";
import { startServer } from "../support/server-process";

/**
 * No request costs the server much more than a small one of its kind, however large it is
 * (docs/decisions/026-routes-known-up-front.md): each request of bench/lib/expensive-requests.ts,
 * as large as a client can send, is refused or costs the built server's main thread (its event
 * loop) at most three times what its small counterpart costs. Before lazy route discovery was
 * turned off, a not-found page or a manifest request on a path of 2,000 segments cost a hundred
 * times as much.
 */

processTest.describe("what a request costs the server", { tag: "@process" }, () => {
  processTest.setTimeout(180_000);

  processTest(
    "a request as large as a client can send is refused, or costs about what a small one of its kind costs",
    async ({ serverNode }) => {
      const server = await startServer({ node: serverNode, env: { ENQUIRY_RATE_LIMIT: "0" } });
      try {
        const version = buildVersion(await (await fetch(`${server.url}/`)).text());
        const measured = new Map<string, Measured>();
        for (const spec of expensiveRequests(version)) {
          const result = await measure(server.url, server.pid ?? 0, spec, { seconds: 0.5, most: 20 });
          measured.set(spec.label, result);
          expect.soft(result.status, spec.label).toBe(String(spec.answer));
          if (result.cpuMs === null)
            throw new Error("this test reads /proc/<pid>/schedstat: run it on Linux");
          const like = spec.like === undefined ? undefined : measured.get(spec.like);
          if (like?.cpuMs == null) continue;
          expect
            .soft(
              result.cpuMs,
              `${spec.label}: ms of server CPU, beside ${like.cpuMs.toFixed(2)} for ${like.label}`,
            )
            .toBeLessThanOrEqual(3 * like.cpuMs + 1);
        }
      } finally {
        await server.stop();
      }
    },
  );

  processTest(
    "a target too long answers 414 and headers too large 431, with the security headers, even when NODE_OPTIONS raises Node's limit",
    async ({ serverNode }) => {
      const server = await startServer({
        node: serverNode,
        env: { NODE_OPTIONS: "--max-http-header-size=81920" },
      });
      try {
        const longest = `/${"a".repeat(4_095)}`;
        expect((await raw(server.url, longest)).status).toBe(404);
        for (const [path, headers, status] of [
          [`${longest}a`, {}, 414],
          [`/?q=${"1".repeat(4_100)}`, {}, 414],
          [`/__manifest?version=x&p=${"/a".repeat(3_700)}`, {}, 414],
          ["/", { cookie: "a=1; ".repeat(3_300) }, 431],
          [
            "/",
            Object.fromEntries(Array.from({ length: 2_000 }, (_, index) => [`x-${index}`, "123456"])),
            431,
          ],
        ] as const) {
          const answer = await raw(server.url, path, headers);
          expect(answer.status, `${path.slice(0, 40)}…`).toBe(status);
          expect(answer.headers["x-content-type-options"]).toBe("nosniff");
          expect(answer.headers["content-security-policy"]).toContain("default-src 'none'");
          expect(answer.headers["cache-control"]).toBe("no-store");
        }
      } finally {
        await server.stop();
      }
    },
  );
});

test("the page knows every route: the policy dialog loads its text without asking /__manifest, which is the not-found page", async ({
  page,
  request,
}) => {
  const asked: string[] = [];
  page.on("request", (sent) => {
    if (new URL(sent.url()).pathname === "/__manifest") asked.push(sent.url());
  });
  await page.goto("/");
  const link = page.getByRole("contentinfo").getByRole("link", { name: "Privacy Policy" });
  await expect(link).toHaveAttribute("aria-haspopup", "dialog");
  await link.click();
  await expect(
    page.getByRole("dialog", { name: "Privacy Policy" }).getByRole("heading", { level: 3 }).first(),
  ).toBeVisible();
  expect(asked).toEqual([]);

  const manifest = await request.get("/__manifest?version=x&p=%2Fprivacy-policy");
  expect(manifest.status()).toBe(404);
  expect(manifest.headers()["content-type"]).toContain("text/html");
});
