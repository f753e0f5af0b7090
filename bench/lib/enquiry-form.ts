/**
 * Reads the enquiry form from the rendered home page, so the load test follows whatever
 * hidden fields (anti-replay token, honeypot) the form carries, as a browser would.
 */
import { ENQUIRY_FIELDS } from "../../app/lead-parts/enquiry";

export interface EnquiryForm {
  /** Where the form posts, resolved against the page URL. */
  action: string;
  /** Every named field with the value the page rendered (hidden ones included). */
  fields: Map<string, string>;
}

function attribute(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}\\s*=\\s*("([^"]*)"|'([^']*)'|([^\\s>]+))`, "i").exec(tag);
  if (!match) return undefined;
  return decodeEntities(match[2] ?? match[3] ?? match[4] ?? "");
}

function decodeEntities(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

/** The first `<form method="post">` that has the enquiry fields, or null. */
export function parseEnquiryForm(html: string, pageUrl: string): EnquiryForm | null {
  for (const match of html.matchAll(/<form\b[^>]*>[\s\S]*?<\/form>/gi)) {
    const markup = match[0];
    const formTag = /^<form\b[^>]*>/i.exec(markup)?.[0] ?? "";
    if ((attribute(formTag, "method") ?? "get").toLowerCase() !== "post") continue;
    const fields = new Map<string, string>();
    for (const field of markup.matchAll(/<(input|textarea|select)\b[^>]*>/gi)) {
      const name = attribute(field[0], "name");
      if (!name) continue;
      const type = (attribute(field[0], "type") ?? "text").toLowerCase();
      if (["submit", "button", "reset", "image", "file"].includes(type)) continue;
      fields.set(name, field[1]?.toLowerCase() === "input" ? (attribute(field[0], "value") ?? "") : "");
    }
    if (!ENQUIRY_FIELDS.every((name) => fields.has(name))) continue;
    const action = new URL(attribute(formTag, "action") ?? "?index", pageUrl).href;
    return { action, fields };
  }
  return null;
}

/** The form body of one valid enquiry; `marker` goes into the message so it can be traced. */
export function fillEnquiry(form: EnquiryForm, marker: string): URLSearchParams {
  const body = new URLSearchParams();
  for (const [name, value] of form.fields) body.set(name, value);
  body.set("name", "Load Test");
  body.set("email", "load@example.com");
  body.set("countryCode", "91");
  body.set("phoneNumber", "9876543210");
  body.set("message", `Load-test enquiry ${marker}`);
  return body;
}
