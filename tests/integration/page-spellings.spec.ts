// No browser here: the plain runner, not the page fixtures.
import { expect } from "@playwright/test";
import { caseSpelling, percentSpelling } from "../../bench/lib/expensive-requests";
import { processTest as test } from "../support/fixtures";
import { raw } from "../support/raw-http";
import { healthDetails, startServer } from "../support/server-process";

/**
 * One document per page, whatever the spelling (docs/decisions/043-one-spelling-per-page.md):
 * another spelling answers 301 to the page's one path with its query, and a flood of spellings
 * leaves the render-once cache's pages where they are. The articles are the sitemap's.
 */

test.describe("a page's other spellings", { tag: "@process" }, () => {
  test("answer 301 to the page's one path, the query kept, shared without a query and private with one; a flood leaves the pages cached", async ({
    serverNode,
  }) => {
    const server = await startServer({ node: serverNode });
    try {
      const sitemap = await (await fetch(`${server.url}/sitemap.xml`)).text();
      const articles = [...sitemap.matchAll(/<loc>[^<]*?(\/insights\/[a-z0-9-]+)<\/loc>/g)].map(
        ([, path = ""]) => path,
      );
      expect(articles.length).toBeGreaterThan(0);
      const [article = ""] = articles;

      for (const [spelling, query] of [
        [article.toUpperCase(), ""],
        [`${article}/`, ""],
        [article.replace("-", "%2D"), ""],
        [caseSpelling(article, 5), "?gclid=A1b2&utm_source=ads"],
        [`${article}/`, "?utm_campaign=launch"],
      ] as const) {
        const answer = await raw(server.url, `${spelling}${query}`);
        expect(answer.status, spelling).toBe(301);
        expect(answer.headers.location, spelling).toBe(`${article}${query}`);
        expect(answer.headers["cache-control"], spelling).toBe(
          query === "" ? "public, max-age=3600" : "private, no-store",
        );
      }

      const firstPage = await raw(server.url, "/insights/page/1?gclid=A");
      expect(firstPage.status).toBe(301);
      expect(firstPage.headers.location).toBe("/insights?gclid=A");
      expect(firstPage.headers["cache-control"]).toBe("private, no-store");
      const firstPageClean = await raw(server.url, "/insights/page/1");
      expect(firstPageClean.headers.location).toBe("/insights");
      expect(firstPageClean.headers["cache-control"]).toBe("public, max-age=3600");

      // Files and the not-found page keep their own spellings.
      expect((await raw(server.url, "/OG-IMAGE.PNG")).status).toBe(404);
      expect((await raw(server.url, "/No-Such-Page/")).status).toBe(404);

      // The pages visitors read, each asked for twice: rendered once and kept.
      for (const path of articles) {
        for (const _ of [1, 2]) expect((await raw(server.url, path)).status).toBe(200);
      }
      const before = (await healthDetails(server.url)).sharedDocuments;
      for (let index = 0; index < 100; index += 1) {
        const path = articles[index % articles.length] ?? article;
        const spelling = index % 2 === 0 ? caseSpelling(path, index) : percentSpelling(path, index);
        expect((await raw(server.url, spelling)).status, spelling).toBe(301);
      }
      for (const path of articles) expect((await raw(server.url, path)).status).toBe(200);
      // No spelling was rendered, and every article was answered from the cache.
      expect((await healthDetails(server.url)).sharedDocuments).toEqual(before);
    } finally {
      await server.stop();
    }
  });
});
