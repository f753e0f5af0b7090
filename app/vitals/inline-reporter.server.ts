/**
 * The field-metrics reporter of a page without a bundle: a small inline script that measures the
 * same five metrics as the bundled reporter with the browser's own performance entries, and
 * posts the same beacon when the page is hidden.
 *
 * What it may send: docs/decisions/012-anonymous-field-metrics.md; why it is inline there:
 * docs/decisions/038-pages-without-a-bundle.md.
 */
import { isRouteErrorResponse } from "@remix-run/react";
import { MAX_TAG_LENGTH } from "~/lead-parts/campaign-fields";
import { CLICK_IDS } from "~/lead-parts/click-ids";
import { CORE_BUCKETS, MEMORY_BUCKETS, routeOf, THRESHOLDS, VITALS_ENDPOINT } from "~/vitals/metrics";

/**
 * web-vitals' definitions, cut to what a page without interactive parts needs: TTFB and FCP
 * from activation; LCP, the last candidate painted while the page was visible; CLS, the
 * largest burst of shifts (gaps under 1 s, at most 5 s) without recent input, 0 once there is
 * an FCP; INP, the longest interaction (a page with fewer than 50 has no outlier to drop),
 * from `event` entries of 40 ms or more and the first input, which counts even without an
 * interaction id and at 0 ms (durations are rounded to 8 ms). Nothing is measured or sent
 * under Global Privacy Control or Do Not Track. The beacon leaves once, the first time the
 * page is hidden (a page restored from the back/forward cache starts a new one), with
 * `sendBeacon` or else a keep-alive `fetch`, after taking the entries the browser has recorded
 * but not yet handed to the observers (a click just before leaving would be lost otherwise).
 * Runs in the head: it only registers observers (buffered, so nothing is missed) and two
 * listeners. The page's route is the server's to name: the pattern of the path its deepest match
 * took, or "404" when the page answered with an error response (no page claims the path, or its
 * entry is gone). A landing (a navigation from another site or from none) adds its campaign to the
 * beacon once, as ~/vitals/landing.client does with the bundle; a tap on a "Chat on WhatsApp" link
 * is sent at once with the page's campaign, as ~/vitals/whatsapp-taps.client does.
 */
export function fieldMetricsScript(matches: readonly { pathname: string }[], error: unknown): string {
  const pathname = matches.at(-1)?.pathname ?? "/";
  const constants = [
    `R=${JSON.stringify(isRouteErrorResponse(error) ? "404" : routeOf(pathname))}`,
    `T=${JSON.stringify(THRESHOLDS)}`,
    `C=${JSON.stringify(CORE_BUCKETS)}`,
    `M=${JSON.stringify(MEMORY_BUCKETS)}`,
    `E=${JSON.stringify(VITALS_ENDPOINT)}`,
    `X=${JSON.stringify(CLICK_IDS)}`,
    `N=${MAX_TAG_LENGTH}`,
  ].join(",");
  return `(function(){var n=navigator,w=window,d=document,P=w.PerformanceObserver;\
if(n.globalPrivacyControl===true||n.doNotTrack==="1"||w.doNotTrack==="1"||!P||!P.supportedEntryTypes)return;\
var ${constants},\
h=d.visibilityState==="hidden"?0:1/0,e=performance.getEntriesByType("navigation")[0],a=e&&e.activationStart||0,\
t=d.prerendering||a>0?"prerender":d.wasDiscarded?"restore":e?e.type.replace(/_/g,"-"):"navigate",\
m={},s=false,c=0,f=0,g=0,I={},O=[],U=new URL(e?e.name:location.href),S=U.searchParams,Z=false,H=null,K,G;\
try{var F=new URL(d.referrer);Z=F.origin===location.origin;if(!Z)H=F.hostname||null}catch(_){}\
function q(k){var v=S.get(k);return v?Array.from(v).slice(0,N).join(""):null}\
K={source:q("utm_source"),medium:q("utm_medium"),campaign:q("utm_campaign"),click:X.filter(function(k){return S.has(k)})[0]||null,host:H};\
G=(t==="navigate"||t==="prerender")&&!Z;\
function D(){return innerWidth<768?"mobile":innerWidth<1024?"tablet":"desktop"}\
function B(y){try{if(n.sendBeacon&&n.sendBeacon(E,new Blob([y],{type:"application/json"})))return}catch(_){}\
fetch(E,{method:"POST",body:y,headers:{"Content-Type":"application/json"},keepalive:true,credentials:"omit"}).catch(function(){})}\
function W(x){var l=x.target&&x.target.closest&&x.target.closest("a[data-whatsapp]");if(!l)return;\
B(JSON.stringify({tap:"whatsapp",route:R,device:D(),source:K.source,medium:K.medium,campaign:K.campaign,click:K.click,host:K.host}))}\
w.addEventListener("click",W,true);w.addEventListener("auxclick",W,true);\
function b(L,v){var r=null;if(typeof v!=="number"||!isFinite(v))return null;L.forEach(function(x){if(x<=v)r=x});return r}\
function o(y,k,z){if(P.supportedEntryTypes.indexOf(y)<0)return;var q={type:y,buffered:true},i,j;for(i in z)q[i]=z[i];\
j=new P(function(l){l.getEntries().forEach(k)});j.observe(q);O.push(function(){j.takeRecords().forEach(k)})}\
function i(x){var k=x.interactionId||x.entryType==="first-input"&&"f";if(!k)return;var v=Math.max(I[k]||0,x.duration);I[k]=v;if(!(m.INP>=v))m.INP=v}\
if(e)m.TTFB=Math.max(e.responseStart-a,0);\
o("paint",function(x){if(x.name==="first-contentful-paint"&&x.startTime<h){m.FCP=Math.max(x.startTime-a,0);if(m.CLS==null)m.CLS=0}});\
o("largest-contentful-paint",function(x){if(x.startTime<h)m.LCP=Math.max(x.startTime-a,0)});\
o("layout-shift",function(x){if(x.hadRecentInput)return;if(c&&x.startTime-g<1e3&&x.startTime-f<5e3)c+=x.value;else{c=x.value;f=x.startTime}\
g=x.startTime;if(c>(m.CLS||0))m.CLS=c});\
o("event",i,{durationThreshold:40});o("first-input",i);\
w.addEventListener("pageshow",function(x){if(x.persisted){m={};s=false;t="back-forward-cache";c=0;I={}}},true);\
d.addEventListener("visibilitychange",function(){if(d.visibilityState!=="hidden")return;h=Math.min(h,performance.now());O.forEach(function(k){k()});send()});\
function send(){var L=[],k,v,y;if(s)return;\
for(k in m){v=k==="CLS"?Math.round(m[k]*1e4)/1e4:Math.round(m[k]);L.push({name:k,value:v,rating:v<=T[k][0]?"good":v<=T[k][1]?"needs-improvement":"poor"})}\
if(!L.length&&!G)return;s=true;\
y=JSON.stringify({route:R,device:D(),\
navigationType:t,cores:b(C,n.hardwareConcurrency),memoryGb:b(M,n.deviceMemory),metrics:L,landing:G?K:void 0});G=false;B(y)}})()`;
}
