import { describe, expect, it } from "vitest";
import { deferHydration } from "~/defer-hydration.server";
import { inertPreloadRel, inertScriptType } from "~/deferred-hydration";

const remixScripts =
  '<link rel="modulepreload" href="/build/entry.client-A.js"/><link rel="modulepreload" href="/build/root-B.js"/>' +
  '<script nonce="n0nce">window.__remixContext = {};</script>' +
  '<script nonce="n0nce" type="module" async="">import * as route0 from "/build/root-B.js";</script>';

describe("deferHydration", () => {
  it("turns Remix's module preloads and module script inert, keeping every element in place", () => {
    const html = deferHydration(`<body><main></main>${remixScripts}</body>`);
    expect(html).not.toContain('rel="modulepreload"');
    expect(html.match(new RegExp(`rel="${inertPreloadRel}"`, "g"))).toHaveLength(2);
    expect(html).toContain(`<script nonce="n0nce" type="${inertScriptType}">import * as route0`);
    expect(html).toContain('<script nonce="n0nce">window.__remixContext = {};</script>');
    expect(html.match(/<(link|script)\b/g)).toHaveLength(4);
  });

  it("leaves a document without Remix's module script as it is", () => {
    const page = '<body><link rel="modulepreload" href="/x.js"/></body>';
    expect(deferHydration(page)).toBe(page);
  });
});
