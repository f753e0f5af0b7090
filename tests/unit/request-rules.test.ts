import { describe, expect, it } from "vitest";
import { sharedDocumentPath } from "~/shared-documents/document-cache.server";
import { loggedTarget } from "../../server/request-log";

describe("the request log's target", () => {
  it("keeps the path and a query's parameter names, never their values", () => {
    expect(loggedTarget("/privacy-policy")).toBe("/privacy-policy");
    expect(loggedTarget("/?utm_source=mail&gclid=abc123")).toBe("/?utm_source=&gclid=");
    expect(loggedTarget("/?index")).toBe("/?index=");
    expect(loggedTarget("/?email=a%40b.in&&x=1?y=2")).toBe("/?email=&x=");
    expect(loggedTarget("/?")).toBe("/?");
  });

  it("prints only visible ASCII", () => {
    expect(loggedTarget("/caf\u00e9\n")).toBe("/caf??");
  });
});

describe("which requests may get a shared document", () => {
  it("a GET or HEAD of a path, with no query and no cookie", () => {
    expect(sharedDocumentPath("GET", "/", undefined)).toBe("/");
    expect(sharedDocumentPath("HEAD", "/terms-conditions", null)).toBe("/terms-conditions");
  });

  it("nothing else: other methods, a query, any cookie, a target that is not a path", () => {
    expect(sharedDocumentPath("POST", "/", undefined)).toBeNull();
    expect(sharedDocumentPath("GET", "/?ref=mail", undefined)).toBeNull();
    expect(sharedDocumentPath("GET", "/?", undefined)).toBeNull();
    expect(sharedDocumentPath("GET", "/", "enquiry_notice=x")).toBeNull();
    expect(sharedDocumentPath("GET", "/", "")).toBeNull();
    expect(sharedDocumentPath("GET", "*", undefined)).toBeNull();
  });
});
