/**
 * Keeps a visitor who followed an in-page link on its target while the layout above it changes.
 *
 * The browser's smooth scroll to a fragment heads for the offset the target had when the
 * scroll started. Hydration is meant to change no height (the services' tabs are served
 * too), but anything above that changes height meanwhile would carry the visitor past the
 * target (before the tabs were served, 370 px at 1280 px). Whenever the document's height changes and the target
 * has moved, the script looks at the next two frames: if the page was on its way to the
 * target's old place, or rests there, it scrolls to the new one (smoothly or not, as the
 * stylesheet's `scroll-behavior` says, so reduced motion is respected). Once the visitor
 * scrolls by themselves (wheel, touch, keys), the page is theirs until they follow a link again.
 *
 * It runs in the document head (`headScript`): the first click can come before the page's
 * JavaScript, and this costs that JavaScript nothing.
 *
 * `rest(e)`: the scroll position the browser gives `e`, its top below the scroll padding and
 * margin. `toward(from, now, place)`: the page, at `from` a frame ago and at `now`, is on its
 * way to `place` or rests there.
 */
export const keepHashTargetInPlace = `(function(){var w=window,d=document,r=d.documentElement,t=null,to=0,own=false,busy=false;\
if(!w.ResizeObserver)return;\
function target(){try{return d.getElementById(decodeURIComponent(location.hash.slice(1)))}catch(e){return null}}\
function rest(e){var y=e.getBoundingClientRect().top+w.scrollY-(parseFloat(getComputedStyle(r).scrollPaddingTop)||0)-(parseFloat(getComputedStyle(e).scrollMarginTop)||0);\
return Math.max(0,Math.min(y,r.scrollHeight-r.clientHeight))}\
function aim(){t=target();if(t)to=rest(t)}\
function toward(from,now,place){if(Math.abs(now-from)<1)return Math.abs(now-place)<1;\
return (now-from)*(place-from)>0&&Math.abs(place-now)<=Math.abs(place-from)}\
function mine(){own=true}\
w.addEventListener("hashchange",function(){own=false;aim()});\
w.addEventListener("click",function(e){if(e.target.closest&&e.target.closest('a[href*="#"]'))own=false},true);\
w.addEventListener("wheel",mine,{capture:true,passive:true});\
w.addEventListener("touchmove",mine,{capture:true,passive:true});\
w.addEventListener("keydown",function(e){if(/^(Arrow|Page)|^(Home|End| )$/.test(e.key))mine()},true);\
new ResizeObserver(function(){if(!t||!t.isConnected)aim();if(!t||busy||Math.abs(rest(t)-to)<1)return;\
busy=true;var from=w.scrollY;\
requestAnimationFrame(function(){requestAnimationFrame(function(){busy=false;var stale=to,now=w.scrollY;to=rest(t);\
if(!own&&Math.abs(now-to)>=1&&toward(from,now,stale))t.scrollIntoView()})})}).observe(r)})();`;
