/**
 * The inline script a page without a bundle runs to keep a campaign's source: it copies the
 * landing URL's tracking parameters onto the page's links to the site's other pages.
 *
 * Why: docs/decisions/038-pages-without-a-bundle.md (decision 018 holds: no storage, no cookie).
 */
import { TRACKING_PARAMETERS, TRACKING_PREFIX } from "~/tracking-parameters.server";

/**
 * A visitor who lands on a policy page from an ad (`/privacy-policy?utm_source=…`) and follows
 * its link to the form would reach the home page without the parameters, and with no bundle
 * there is no page memory to keep them in. This script, at the end of the body, adds the
 * landing's tracking parameters (only those: the shared documents' list, so the next page is
 * still the shared one) to every link to another page of this site; the enquiry form's
 * `Referer` or the home page's own script then reads them there. Links within the page
 * (`#section`), files (`/favicon.svg`) and other sites keep their `href`. A link that already
 * names a parameter keeps its own value. Nothing is stored anywhere.
 */
export function campaignLinksScript(): string {
  return `(function(){var x=${JSON.stringify(TRACKING_PARAMETERS)},p=${JSON.stringify(TRACKING_PREFIX)},l=location,k=[];\
new URLSearchParams(l.search).forEach(function(v,n){if(x.indexOf(n)>=0||(n.indexOf(p)===0&&n.length>p.length))k.push([n,v])});\
if(!k.length)return;\
[].forEach.call(document.querySelectorAll("a[href]"),function(a){var u=new URL(a.href);\
if(u.origin!==l.origin||/\\.[a-z0-9]+$/i.test(u.pathname)||(u.pathname===l.pathname&&u.search===l.search))return;\
k.forEach(function(e){if(!u.searchParams.has(e[0]))u.searchParams.append(e[0],e[1])});\
a.setAttribute("href",u.pathname+u.search+u.hash)})})()`;
}
