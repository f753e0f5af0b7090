/**
 * The checks `npm run check:content` makes on what the crawl served, without a browser: each
 * address answers as it should, every link of the site's own resolves to a page that answers 200
 * and to an element its fragment names, every image loads as one, the feed, the sitemap and the
 * manifest are well-formed, and each page's HTML and CSS keep within their byte budgets.
 */
import { against, BUDGETS, htmlBudgetOf } from "../../tests/support/byte-budgets";
import { keyOf, type ServedResource } from "./crawl";
import type { Fault } from "./faults";

/**
 * Fragments a link may name with no element of that id: `top` (and the empty one) is the top of
 * the page by the HTML standard; `close-menu` is the menu's close link without JavaScript, which
 * leaves the menu's `:target` on purpose (app/components/site-menu-drawer.tsx).
 */
const FRAGMENTS_WITHOUT_ELEMENT = new Set(["", "top", "close-menu"]);

/** The status each address the crawl started from must answer. */
export interface Expected {
  path: string;
  status: number;
}

export function servedFaults(
  served: Map<string, ServedResource>,
  origin: string,
  expected: Expected[],
): Fault[] {
  const faults: Fault[] = [];
  for (const { path, status } of expected) {
    const resource = served.get(path);
    if (resource && resource.status !== status) {
      faults.push({ where: path, message: `answers ${describeAnswer(resource)}, not ${status}` });
    }
  }
  for (const resource of served.values()) {
    if (resource.parts?.malformed) {
      faults.push({
        where: resource.path,
        message: `is not well-formed ${resource.type.includes("json") ? "JSON" : "XML"}: ${resource.parts.malformed}`,
      });
    }
    faults.push(...referenceFaults(resource, served, origin), ...budgetFaults(resource, served, origin));
  }
  // A link repeated on a page (a call to action in every section) is one fault.
  const seen = new Set<string>();
  return faults.filter((fault) => {
    const key = `${fault.where}\n${fault.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function describeAnswer(resource: ServedResource): string {
  return resource.status === 0 ? `nothing (${resource.error})` : String(resource.status);
}

function referenceFaults(
  resource: ServedResource,
  served: Map<string, ServedResource>,
  origin: string,
): Fault[] {
  const faults: Fault[] = [];
  for (const reference of resource.parts?.references ?? []) {
    const fault = (message: string) =>
      faults.push({ where: resource.path, message: `${reference.label} ${message}` });
    let url: URL;
    try {
      url = new URL(reference.url);
    } catch {
      fault(`names "${reference.url}", which is no address`);
      continue;
    }
    // Other sites are not fetched: the check runs offline, and their answers are not the content's.
    if (url.origin !== origin) continue;
    const address = `${url.pathname}${url.search}${url.hash}`;
    // A link within its own page (`#main`) needs an element there, whatever the page's status.
    const samePage = keyOf(url) === resource.path;
    const target = samePage ? resource : served.get(keyOf(url));
    if (!target) continue;
    if (samePage && !reference.image) {
      checkFragment(url, target, fault);
      continue;
    }
    if (target.status >= 300 && target.status < 400) {
      const to = target.location ? new URL(target.location) : null;
      fault(
        `to ${address} is redirected (${target.status})${to ? ` to ${to.origin === origin ? keyOf(to) : to.href}: link there instead` : ""}`,
      );
      continue;
    }
    if (target.status !== 200) {
      fault(`to ${address} answers ${describeAnswer(target)}`);
      continue;
    }
    if (reference.image) {
      if (!target.type.startsWith("image/"))
        fault(`${address} is not an image (${target.type || "no type"})`);
      else if (target.imageProblem) fault(`${address} cannot be read as an image: ${target.imageProblem}`);
      continue;
    }
    checkFragment(url, target, fault);
  }
  return faults;
}

/** A link's fragment against the elements of the page it leads to. */
function checkFragment(url: URL, target: ServedResource, fault: (message: string) => void): void {
  const fragment = decodedFragment(url.hash);
  if (
    target.parts?.anchors &&
    !FRAGMENTS_WITHOUT_ELEMENT.has(fragment) &&
    !target.parts.anchors.includes(fragment)
  ) {
    fault(`to ${url.pathname}${url.search}${url.hash}: ${target.path} has no element with id "${fragment}"`);
  }
}

/** A fragment as an id is written; as it stands when it is not percent-encoded UTF-8. */
function decodedFragment(hash: string): string {
  try {
    return decodeURIComponent(hash.slice(1));
  } catch {
    return hash.slice(1);
  }
}

/** A page's document against its HTML budget, and the stylesheets it loads against the CSS budget. */
function budgetFaults(
  resource: ServedResource,
  served: Map<string, ServedResource>,
  origin: string,
): Fault[] {
  if (resource.type !== "text/html" || !resource.parts) return [];
  const faults: Fault[] = [];
  const htmlBudget = htmlBudgetOf(resource.path);
  if (resource.gzip > htmlBudget) {
    faults.push({
      where: resource.path,
      message: `its HTML is over its budget: ${against(resource.gzip, htmlBudget)} at gzip -9`,
    });
  }
  const css = resource.parts.stylesheets
    .filter((address) => URL.canParse(address) && new URL(address).origin === origin)
    .reduce((sum, address) => sum + (served.get(keyOf(new URL(address)))?.gzip ?? 0), 0);
  if (css > BUDGETS.css) {
    faults.push({
      where: resource.path,
      message: `its CSS is over its budget: ${against(css, BUDGETS.css)} at gzip -9`,
    });
  }
  return faults;
}
