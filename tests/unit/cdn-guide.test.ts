import { describe, expect, it } from "vitest";
import { onlyTrackingParameters, TRACKING_PARAMETERS } from "~/tracking-parameters.server";
import { guideCacheArgs, guideCacheKey, guideProxyHeaders, readNginxGuide } from "../support/nginx-guide";

const cacheArgs = guideCacheArgs();
const key = guideCacheKey();

describe("docs/deploying.md's nginx cache key", () => {
  it("drops a query of tracking parameters only, for every one the app knows", () => {
    for (const name of [...TRACKING_PARAMETERS, "utm_source", "utm_medium", "utm_campaign", "utm_content"]) {
      expect(cacheArgs(`${name}=x`), name).toBe("");
      expect(cacheArgs(name), name).toBe("");
    }
    expect(key("/?utm_source=newsletter&utm_medium=email&utm_campaign=launch")).toBe(key("/"));
    expect(key("/privacy-policy?gclid=Cj0KCQ&fbclid=IwAR2")).toBe(key("/privacy-policy"));
    expect(key("/?")).toBe(key("/"));
  });

  it("keeps every other query whole: the notice's token and unknown parameters keep their own key", () => {
    for (const target of [
      "/?enquiry=abc.def.ghi",
      "/?page=2",
      "/?utm_source=x&page=2",
      "/?index",
      "/?utm_=x",
    ]) {
      expect(key(target), target).not.toBe(key("/"));
      expect(key(target)).toBe(target);
    }
  });

  it("agrees with the app on which queries are shared", () => {
    for (const query of [
      "",
      "utm_source=a&utm_medium=b",
      "gclid=1&gclid=2",
      "ref=partner",
      "_ga=2.1&_gl=1*abc",
      "li_fat_id=x&mc_cid=y&mc_eid=z",
      "enquiry=t",
      "page=2",
      "ref=a&referrer=b",
      "utm=1",
      "msclkid=a&x",
    ]) {
      expect(cacheArgs(query) === "", query).toBe(onlyTrackingParameters(query));
    }
  });

  it("lists every tracking parameter for CDNs that take names", () => {
    const guide = readNginxGuide();
    const cdns = guide.slice(guide.indexOf("**CDNs** list the parameters"), guide.indexOf("- Cloudflare:"));
    for (const name of TRACKING_PARAMETERS) expect(cdns, name).toContain(`\`${name}\``);
    const fastly = /querystring\.regfilter\(req\.url, "([^"]+)"\)/.exec(guide)?.[1] ?? "";
    for (const name of [...TRACKING_PARAMETERS, "utm_source", "utm_anything"]) {
      expect(new RegExp(fastly).test(name), name).toBe(true);
    }
    expect(new RegExp(fastly).test("enquiry")).toBe(false);
  });
});

describe("docs/deploying.md's nginx block", () => {
  it("passes the host and scheme it saw, and clears a client's X-Forwarded-Host, which its cache key does not hold", () => {
    const headers = guideProxyHeaders();
    expect(headers.get("host")).toBe("$host");
    expect(headers.get("x-forwarded-proto")).toBe("$scheme");
    expect(headers.get("x-forwarded-host")).toBe('""');
  });
});
