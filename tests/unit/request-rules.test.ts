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
  it("a GET or HEAD of a path with no query, whatever cookies come with it", () => {
    expect(sharedDocumentPath("GET", "/")).toBe("/");
    expect(sharedDocumentPath("HEAD", "/terms-conditions")).toBe("/terms-conditions");
    expect(sharedDocumentPath("GET", "/?")).toBe("/");
  });

  it("under its clean path when the query holds only tracking parameters", () => {
    expect(sharedDocumentPath("GET", "/?utm_source=newsletter&utm_medium=email&utm_campaign=launch")).toBe(
      "/",
    );
    expect(sharedDocumentPath("GET", "/privacy-policy?gclid=abc&fbclid=def&ref=mail")).toBe(
      "/privacy-policy",
    );
    expect(sharedDocumentPath("HEAD", "/?msclkid=1")).toBe("/");
  });

  it("nothing else: other methods, any other parameter, the notice's token, a target that is not a path", () => {
    expect(sharedDocumentPath("POST", "/")).toBeNull();
    expect(sharedDocumentPath("GET", "/?page=2")).toBeNull();
    expect(sharedDocumentPath("GET", "/?utm_source=mail&page=2")).toBeNull();
    expect(sharedDocumentPath("GET", "/?enquiry=abc.def.ghi")).toBeNull();
    expect(sharedDocumentPath("GET", "/?index")).toBeNull();
    expect(sharedDocumentPath("GET", "*")).toBeNull();
  });
});
