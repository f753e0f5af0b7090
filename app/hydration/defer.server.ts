/**
 * The page's JavaScript starts after its first paint instead of alongside it.
 *
 * Remix emits a `<link rel="modulepreload">` for every module the page needs and one inline
 * module script that imports them; the browser would fetch all of it (some 100 KB) together
 * with the stylesheet, so on a slow connection the first paint shares the bandwidth with code
 * it does not need. The page is complete without JavaScript, so nothing is lost by waiting
 * one frame. `deferHydration` renames those preloads and turns the
 * module script inert; `headScript`, which runs in the head, puts back equal elements in
 * their places once the page has loaded (its images and font included, so the largest paint
 * is done) and the browser has reported its first contentful paint (where paint timing is
 * missing, or the tab was hidden, after two frames once visible; a last timer 5 s after load). The elements keep their positions and tags, so
 * hydration finds exactly the markup React rendered.
 */
const inertPreloadRel = "x-remix-modulepreload";
export const inertScriptType = "text/x-remix-hydration";

const startHydrationAfterPaint = `(function(){var d=document,w=window,done=false,painted=false,loaded=false;\
function start(){if(done)return;done=true;\
d.querySelectorAll('link[rel="${inertPreloadRel}"]').forEach(function(o){var l=d.createElement("link");l.rel="modulepreload";l.href=o.href;o.replaceWith(l)});\
var o=d.querySelector('script[type="${inertScriptType}"]');if(!o)return;var s=d.createElement("script");s.type="module";s.nonce=o.nonce;s.textContent=o.textContent;o.replaceWith(s)}\
function ready(){if(painted&&loaded)setTimeout(start,0)}\
function afterFrames(){requestAnimationFrame(function(){requestAnimationFrame(function(){painted=true;ready()})})}\
var P=w.PerformanceObserver;\
if(P&&P.supportedEntryTypes&&P.supportedEntryTypes.indexOf("paint")>=0&&d.visibilityState==="visible"){\
new P(function(list){if(list.getEntriesByName("first-contentful-paint").length){painted=true;ready()}}).observe({type:"paint",buffered:true})}\
else afterFrames();\
d.addEventListener("visibilitychange",function(){if(d.visibilityState==="visible")afterFrames()});\
function onLoad(){loaded=true;ready();setTimeout(start,5000)}\
if(d.readyState==="complete")onLoad();else w.addEventListener("load",onLoad)})()`;

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
