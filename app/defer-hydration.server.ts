/**
 * The page's JavaScript starts after its first paint instead of alongside it.
 *
 * Remix emits a `<link rel="modulepreload">` for every module the page needs and one inline
 * module script that imports them; the browser would fetch all of it (some 100 KB) together
 * with the stylesheet, so on a slow connection the first paint shares the bandwidth with code
 * it does not need. The page is complete without JavaScript, so nothing is lost by waiting
 * one frame. `deferHydration` renames those preloads and turns the
 * module script inert; `headScript`, which runs in the head, puts back equal elements in
 * their places once the browser reports its first contentful paint (or, where paint timing
 * is missing, shortly after two frames; a hidden tab paints nothing, hence the last timer). The elements keep their positions and tags, so
 * hydration finds exactly the markup React rendered.
 */
const inertPreloadRel = "x-remix-modulepreload";
const inertScriptType = "text/x-remix-hydration";

const startHydrationAfterPaint = `(function(){var d=document,done=false;function start(){if(done)return;done=true;\
d.querySelectorAll('link[rel="${inertPreloadRel}"]').forEach(function(o){var l=d.createElement("link");l.rel="modulepreload";l.href=o.href;o.replaceWith(l)});\
var o=d.querySelector('script[type="${inertScriptType}"]');if(!o)return;var s=d.createElement("script");s.type="module";s.nonce=o.nonce;s.textContent=o.textContent;o.replaceWith(s)}\
function afterPaint(){setTimeout(start,1500);var P=window.PerformanceObserver;\
if(P&&P.supportedEntryTypes&&P.supportedEntryTypes.indexOf("paint")>=0){new P(function(list){list.getEntriesByName("first-contentful-paint").length&&setTimeout(start,0)}).observe({type:"paint",buffered:true})}\
else requestAnimationFrame(function(){requestAnimationFrame(function(){setTimeout(start,0)})})}\
if(d.readyState==="loading")d.addEventListener("DOMContentLoaded",afterPaint);else afterPaint()})()`;

const MODULE_PRELOAD = '<link rel="modulepreload" href="';
const MODULE_SCRIPT = /<script nonce="([^"]*)" type="module" async="">/;

/** Makes Remix's module preloads and module script inert until the page has painted. */
export function deferHydration(html: string): string {
  if (!MODULE_SCRIPT.test(html)) return html;
  return html
    .replaceAll(MODULE_PRELOAD, `<link rel="${inertPreloadRel}" href="`)
    .replace(MODULE_SCRIPT, `<script nonce="$1" type="${inertScriptType}">`);
}

/** The document head's inline script: marks the page as scripted, then waits for the first paint. */
export function headScript(): string {
  return `document.documentElement.classList.add("js");${startHydrationAfterPaint}`;
}
