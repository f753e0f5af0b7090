/**
 * The page's JavaScript starts after its first paint instead of alongside it.
 *
 * Remix emits a `<link rel="modulepreload">` for every module the page needs and one inline
 * module script that imports them; the browser would fetch all of it (some 100 KB) together
 * with the stylesheet, so on a slow connection the first paint shares the bandwidth with code
 * it does not need. The page is complete without JavaScript, so nothing is lost by waiting
 * one frame. The server (`defer-hydration.server.ts`) renames those preloads and turns the
 * module script inert; the script below, which runs in the head, puts back equal elements in
 * their places once the browser reports its first contentful paint (or, where paint timing
 * is missing, shortly after two frames; a hidden tab paints nothing, hence the last timer). The elements keep their positions and tags, so
 * hydration finds exactly the markup React rendered.
 */
export const inertPreloadRel = "x-remix-modulepreload";
export const inertScriptType = "text/x-remix-hydration";

export const startHydrationAfterPaint = `(function(){var d=document,done=false;function start(){if(done)return;done=true;\
d.querySelectorAll('link[rel="${inertPreloadRel}"]').forEach(function(o){var l=d.createElement("link");l.rel="modulepreload";l.href=o.href;o.replaceWith(l)});\
var o=d.querySelector('script[type="${inertScriptType}"]');if(!o)return;var s=d.createElement("script");s.type="module";s.nonce=o.nonce;s.textContent=o.textContent;o.replaceWith(s)}\
function afterPaint(){setTimeout(start,1500);var P=window.PerformanceObserver;\
if(P&&P.supportedEntryTypes&&P.supportedEntryTypes.indexOf("paint")>=0){new P(function(list){list.getEntriesByName("first-contentful-paint").length&&setTimeout(start,0)}).observe({type:"paint",buffered:true})}\
else requestAnimationFrame(function(){requestAnimationFrame(function(){setTimeout(start,0)})})}\
if(d.readyState==="loading")d.addEventListener("DOMContentLoaded",afterPaint);else afterPaint()})()`;
