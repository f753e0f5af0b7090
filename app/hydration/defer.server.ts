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
 * is done), the browser has reported its first contentful paint (where paint timing is
 * missing, or the tab was hidden, after two frames once visible) and the frames below have
 * rendered the whole page, so that fetching and compiling the bundle does not compete with
 * them for the phone's cores (a last timer 5 s after load starts it whatever the state). The
 * elements keep their positions and tags, so hydration finds exactly the markup React rendered.
 *
 * The same script spreads the page's first style and layout over several frames. Until the
 * first paint, the stylesheet skips the rendering of what lies below the top of the page
 * (`content-visibility: auto` on the later children of `<main>` and on the footer), so the
 * first frame lays out the header and the first section only. From the first paint on, each
 * frame marks one more of them rendered; after the last, `painted` on `<html>` ends the rule,
 * so nothing mounted later is ever skipped. A click or a key press meanwhile renders the rest
 * at once, before the browser acts on it (an in-page link needs the real heights to land).
 * Laid out in one task, the whole page was the longest task of a cold load
 * (docs/performance.md, "The design"). Without JavaScript the page renders whole: the rule needs `html.js`.
 */
import { keepHashTargetInPlace } from "~/hydration/keep-hash-target.server";

const inertPreloadRel = "x-remix-modulepreload";
export const inertScriptType = "text/x-remix-hydration";

/**
 * What the stylesheet skips until the first paint, in document order, one per frame: see its
 * rule under `html.js:not(.painted)`. The largest parts of two sections get frames of their
 * own, after the rest of their section: the featured work's banner (in `#testimonial`) and the
 * enquiry form's privacy notice (in `#contact`), whose section's layout was the longest frame
 * (docs/performance.md, "Where the home page's long tasks come from").
 */
const renderedLaterSelector = "main > * + *, #featured-work, #privacy-notice, body > footer";

/**
 * Skips only on a plain navigation without a fragment: the browser places a page opened at
 * `#contact`, reloaded or revisited by the heights it lays out first, and placeholder heights
 * above the target would leave it elsewhere. Otherwise `painted` is there before the first frame.
 *
 * `renderRest(all)`: marks the next element rendered (every one left, with `all`), and asks the
 * next frame for the one after; once none is left, adds `painted` and stops listening. The text
 * runs inside `startHydrationAfterPaint`'s function, whose `d` and `w` it uses.
 */
const renderRestInFrames = `var rest,entry=w.performance&&performance.getEntriesByType&&performance.getEntriesByType("navigation")[0],\
skipping=!location.hash&&!(entry&&entry.type!=="navigate");\
if(skipping){w.addEventListener("click",renderAll,true);w.addEventListener("keydown",renderAll,true)}\
else d.documentElement.classList.add("painted");\
function renderRest(all){if(!skipping)return;if(!rest)rest=[].slice.call(d.querySelectorAll("${renderedLaterSelector}"));\
var e;do{e=rest.shift();if(e)e.setAttribute("data-rendered","")}while(e&&all);\
if(e){requestAnimationFrame(function(){renderRest(false)});return}\
skipping=false;d.documentElement.classList.add("painted");w.removeEventListener("click",renderAll,true);w.removeEventListener("keydown",renderAll,true);ready()}\
function renderAll(){renderRest(true)}`;

const startHydrationAfterPaint = `(function(){var d=document,w=window,done=false,painted=false,loaded=false;\
${renderRestInFrames}\
function start(){if(done)return;done=true;\
d.querySelectorAll('link[rel="${inertPreloadRel}"]').forEach(function(o){var l=d.createElement("link");l.rel="modulepreload";l.href=o.href;o.replaceWith(l)});\
var o=d.querySelector('script[type="${inertScriptType}"]');if(!o)return;var s=d.createElement("script");s.type="module";s.nonce=o.nonce;s.textContent=o.textContent;o.replaceWith(s)}\
function onPaint(){if(painted)return;painted=true;requestAnimationFrame(function(){renderRest(false)});ready()}\
function ready(){if(painted&&loaded&&!skipping)setTimeout(start,0)}\
function afterFrames(){requestAnimationFrame(function(){requestAnimationFrame(onPaint)})}\
var P=w.PerformanceObserver;\
if(P&&P.supportedEntryTypes&&P.supportedEntryTypes.indexOf("paint")>=0&&d.visibilityState==="visible"){\
new P(function(list){if(list.getEntriesByName("first-contentful-paint").length)onPaint()}).observe({type:"paint",buffered:true})}\
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

/**
 * The document head's inline script: marks the page as scripted, waits for the first paint,
 * and keeps an in-page link's target in place through hydration (keep-hash-target.server).
 */
export function headScript(): string {
  return `document.documentElement.classList.add("js");${startHydrationAfterPaint};${keepHashTargetInPlace}`;
}
