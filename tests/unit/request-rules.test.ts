import { describe, expect, it } from "vitest";
import { sharedDocumentPath } from "~/shared-documents/document-cache.server";
import { parseHost, requestTarget } from "../../server/request-line";
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

describe("the request's host", () => {
  it("is a host name, an IPv4 address or a bracketed IPv6 address, with an optional port, in lower case", () => {
    expect(parseHost("www.example.com")).toBe("www.example.com");
    expect(parseHost("WWW.Example.COM.")).toBe("www.example.com.");
    expect(parseHost("www.example.com:8080")).toBe("www.example.com:8080");
    expect(parseHost("web_1:3000")).toBe("web_1:3000");
    expect(parseHost("127.0.0.1")).toBe("127.0.0.1");
    expect(parseHost("127.0.0.1:03000")).toBe("127.0.0.1:3000");
    expect(parseHost("[::1]")).toBe("[::1]");
    expect(parseHost("[2001:DB8::7]:443")).toBe("[2001:db8::7]:443");
    expect(parseHost("xn--nxasmq6b.example")).toBe("xn--nxasmq6b.example");
  });

  it("is nothing else: no path, query, fragment, user info, space, escape, zone, or bad port", () => {
    for (const value of [
      "www.example.com/privacy-policy#",
      "www.example.com/",
      "www.example.com?x",
      "www.example.com#x",
      "user@www.example.com",
      "www.example.com:80@evil.example",
      "a b",
      "a,b",
      "www.example.com\\x",
      "%77ww.example.com",
      "www.example.com:0",
      "www.example.com:65536",
      "www.example.com:123456",
      "www.example.com:",
      "www.example.com:+80",
      "www.example.com:80:80",
      ":80",
      "",
      "[::1",
      "::1",
      "[::1]x",
      "[fe80::1%eth0]",
      "[fe80::1%25eth0]",
      "[127.0.0.1]",
      "1.2.3",
      "0x7f.1",
      "01.2.3.4",
      "999.1.1.1",
      "-www.example.com",
      "www-.example.com",
      "www..example.com",
      "caf\u00e9.example",
      `${"a".repeat(64)}.example`,
    ]) {
      expect(parseHost(value), value).toBeNull();
    }
  });
});

describe("the request target", () => {
  it("in origin form keeps its path and query, with the Host as given", () => {
    expect(requestTarget("/privacy-policy?utm_source=x", ["WWW.example.com"])).toEqual({
      path: "/privacy-policy?utm_source=x",
      host: "www.example.com",
    });
    expect(requestTarget("/", [])).toEqual({ path: "/", host: "localhost" });
    expect(requestTarget("//www.example.com/x", ["a"])).toEqual({ path: "//www.example.com/x", host: "a" });
  });

  it("in absolute form is served as its path, its host standing for Host", () => {
    expect(requestTarget("http://www.example.com/privacy-policy", ["a"])).toEqual({
      path: "/privacy-policy",
      host: "www.example.com",
    });
    expect(requestTarget("HTTPS://www.example.com:8443", ["a"])).toEqual({
      path: "/",
      host: "www.example.com:8443",
    });
    expect(requestTarget("http://www.example.com?page=2", ["a"])).toEqual({
      path: "/?page=2",
      host: "www.example.com",
    });
    expect(requestTarget("http://user@www.example.com/", ["a"])).toBeNull();
    expect(requestTarget("http://www.example.com/", ["a/b"])).toBeNull();
    expect(requestTarget("ftp://www.example.com/", ["a"])).toBeNull();
  });

  it("needs one valid Host", () => {
    expect(requestTarget("/", ["a", "a"])).toBeNull();
    expect(requestTarget("/", ["www.example.com/privacy-policy#"])).toBeNull();
  });

  it("answers nothing for a path whose percent escapes do not decode, or what is not a path", () => {
    for (const target of [
      "/%ZZ",
      "/x%",
      "/%E0%A4%A",
      "/%FF",
      "/%C0%AF",
      "/build/%ZZ.js",
      "/%ZZ?_data=root",
    ]) {
      expect(requestTarget(target, ["a"]), target).toBeNull();
    }
    expect(requestTarget("/caf%C3%A9?q=%ZZ", ["a"])).toEqual({ path: "/caf%C3%A9?q=%ZZ", host: "a" });
    for (const target of ["*", "www.example.com:443", ""])
      expect(requestTarget(target, ["a"]), target).toBeNull();
  });
});
