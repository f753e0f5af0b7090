import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { deferHydration, headScript } from "~/hydration/defer.server";

const inertPreloadRel = "x-remix-modulepreload";
const inertScriptType = "text/x-remix-hydration";

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

  it("gives the head script the same inert names to bring back", () => {
    expect(headScript()).toContain(`link[rel="${inertPreloadRel}"]`);
    expect(headScript()).toContain(`script[type="${inertScriptType}"]`);
    expect(headScript()).toMatch(/^document\.documentElement\.classList\.add\("js"\);/);
  });

  it("renders later what the stylesheet skips until the first paint, and ends the rule with the same class", () => {
    const css = readFileSync(new URL("../../app/styles/app.css", import.meta.url), "utf8");
    const rule =
      "html.js:not(.painted) main > * + *:not([data-rendered]),\nhtml.js:not(.painted) :is(#featured-work, #privacy-notice):not([data-rendered]),\nhtml.js:not(.painted) body > footer:not([data-rendered]) {\n  content-visibility: auto;";
    expect(css).toContain(rule);
    expect(headScript()).toContain(
      'querySelectorAll("main > * + *, #featured-work, #privacy-notice, body > footer")',
    );
    expect(headScript()).toContain('setAttribute("data-rendered","")');
    expect(headScript()).toContain('classList.add("painted")');
  });

  it("leaves a document without Remix's module script as it is", () => {
    const page = '<body><link rel="modulepreload" href="/x.js"/></body>';
    expect(deferHydration(page)).toBe(page);
  });
});
