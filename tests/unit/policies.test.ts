import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { PolicyBody, policySectionId } from "~/components/policy-body";
import { formatPolicyDate } from "~/components/policy-page";
import { policies, policyFor, privacyPolicy, termsOfService } from "~/content/policies/index.server";
import { fillPolicyHtml, type PolicyFacts } from "~/content/policies/placeholders";
import type { Policy } from "~/content/policies/types";
import { privacyFactsFrom } from "~/content/privacy-facts.server";
import { site } from "~/content/site";
import { WITHDRAWAL_PATH } from "~/content/withdrawal";
import { parseEnv } from "~/env.server";
import { MAX_SPAM_PER_REASON } from "~/leads/contract.server";
import { privacyNoticeTexts } from "~/privacy-notice";
import { privacyNoticeBlocks, privacyNoticePlainText } from "~/privacy-notice/text";

// On the tests' own policies (tests/fixtures/content), filled in as the server fills content/'s:
// what these say of the code (the retention, the data kept) is for a developer who changes the
// code to say in content/ too.

const routes = ["/terms-conditions", "/privacy-policy", "/cookie-policy"];

/** A policy's paragraphs and list items, each as HTML. */
function blocksOf(policy: Policy): string[] {
  return [policy.intro, ...policy.sections.map((section) => section.html)].flatMap((html) =>
    [...html.matchAll(/<(p|li)>([\s\S]*?)<\/\1>/g)].map((match) => match[2] ?? ""),
  );
}

/** HTML as the text a reader reads. */
const plain = (html: string) =>
  html
    .replace(/<[^>]*>/g, "")
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"');

function textsOf(policy: Policy): string[] {
  return [
    policy.title,
    policy.summary,
    ...policy.sections.map((section) => section.heading),
    ...blocksOf(policy).map(plain),
  ];
}

/** A link as the policy's HTML holds it. */
const link = (label: string, href: string) => `<a href="${href}">${label}</a>`;

describe.each(policies.map((policy) => [policy.title, policy] as const))("%s", (_, policy) => {
  it("has its own route", () => {
    expect(routes).toContain(policy.path);
  });

  it("has a valid, past 'updated' date", () => {
    expect(policy.updated).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const date = new Date(`${policy.updated}T00:00:00Z`);
    expect(date.toISOString().slice(0, 10)).toBe(policy.updated);
    expect(date.getTime()).toBeLessThanOrEqual(Date.now());
  });

  it("has a meta-description-sized summary", () => {
    expect(policy.summary.length).toBeGreaterThanOrEqual(70);
    expect(policy.summary.length).toBeLessThanOrEqual(200);
    expect(policy.summary).not.toMatch(/\]\(/);
  });

  it("has unique section headings, and so unique anchors", () => {
    const headings = policy.sections.map((section) => section.heading);
    expect(headings.length).toBeGreaterThanOrEqual(5);
    expect(new Set(headings).size).toBe(headings.length);
    expect(new Set(headings.map(policySectionId)).size).toBe(headings.length);
  });

  it("has no empty intro, section, paragraph or list item", () => {
    expect(policy.intro.length).toBeGreaterThan(0);
    for (const section of policy.sections) {
      expect(section.heading.trim(), "a section heading").not.toBe("");
      expect(section.html.trim(), section.heading).not.toBe("");
    }
    for (const block of blocksOf(policy)) expect(plain(block).trim().length).toBeGreaterThan(4);
  });

  it("gives the agency's e-mail address, filled in, and ends with a way to contact us", () => {
    expect(textsOf(policy).some((text) => text.includes(site.email))).toBe(true);
    const last = policy.sections.at(-1);
    expect(last?.heading).toBe("Contact us");
    expect(last?.html).toContain(link(site.phone.display, `tel:${site.phone.e164}`));
  });

  it("links only to our own pages, our e-mail and our phone", () => {
    const allowed = new Set([...routes, WITHDRAWAL_PATH, `mailto:${site.email}`, `tel:${site.phone.e164}`]);
    for (const block of blocksOf(policy)) {
      for (const [, href] of block.matchAll(/<a href="([^"]*)">/g))
        expect(allowed, `link in: ${block}`).toContain(href);
    }
  });

  it("has every placeholder filled and every condition resolved", () => {
    for (const text of [
      ...textsOf(policy),
      policy.intro,
      ...policy.sections.map((section) => section.html),
    ]) {
      expect(text).not.toMatch(/\{\{|\}\}|lorem|ipsum|todo|tbd/i);
    }
  });
});

describe("policy contents", () => {
  it("never mentions a sign-in in the terms: the site has none", () => {
    for (const text of textsOf(termsOfService)) expect(text).not.toMatch(/log-?in|credential|password/i);
  });

  it("states the CCPA one-month response time and the age of 13 in the privacy policy", () => {
    const text = textsOf(privacyPolicy).join("\n");
    expect(text).toMatch(/one month to respond/);
    expect(text).toMatch(/children under the age of 13/);
  });
});

describe("PolicyBody", () => {
  it("renders sections as h2 with anchors on a page", () => {
    const html = renderToStaticMarkup(createElement(PolicyBody, { policy: privacyPolicy, anchors: true }));
    const [first] = privacyPolicy.sections;
    expect(html).toContain(`<h2 id="${policySectionId(first?.heading ?? "")}"`);
    expect(html).not.toContain("<h3");
    expect(html).toContain(`<a href="mailto:${site.email}"`);
    expect(html).not.toContain("](");
  });

  it("renders sections as h3 without ids inside a dialog", () => {
    const html = renderToStaticMarkup(createElement(PolicyBody, { policy: termsOfService, headingLevel: 3 }));
    expect(html).toContain(`>${termsOfService.sections[0]?.heading}</h3>`);
    expect(html).not.toContain("<h2");
    expect(html).not.toContain(" id=");
    expect(html).toContain('<a href="/privacy-policy"');
  });
});

describe("fillPolicyHtml", () => {
  const facts = (whatsapp: boolean): PolicyFacts => {
    const text = Object.fromEntries(
      ["name", "short-name", "city", "region", "country", "address", "founding-year", "whatsapp"].map(
        (key) => [key, `<${key}>`],
      ),
    );
    return {
      text: { ...text, "retention-days": "9", "spam-retention-days": "3", "privacy-contact-name": "" },
      links: {
        email: { label: "a@b.in", href: "mailto:a@b.in" },
        phone: { label: "+91 1", href: "tel:+911" },
        "privacy-contact-email": { label: "p@b.in", href: "mailto:p@b.in" },
      },
      conditions: { whatsapp, "privacy-contact-named": false, "privacy-contact-unnamed": true },
    } as PolicyFacts;
  };
  const html =
    "<p>{{if whatsapp}} Chat at {{whatsapp}}.</p>\n<ul>\n<li>{{email}}</li>\n<li>{{if whatsapp}} {{whatsapp}}</li>\n</ul>";

  it("keeps a paragraph or list item whose condition holds, without its condition, and drops it otherwise", () => {
    expect(fillPolicyHtml(html, facts(true))).toBe(
      '<p>Chat at &lt;whatsapp&gt;.</p>\n<ul>\n<li><a href="mailto:a@b.in">a@b.in</a></li>\n<li>&lt;whatsapp&gt;</li>\n</ul>',
    );
    expect(fillPolicyHtml(html, facts(false))).toBe(
      '<ul>\n<li><a href="mailto:a@b.in">a@b.in</a></li>\n</ul>',
    );
  });
});

describe("formatPolicyDate", () => {
  it("writes the date out in full, without locale or time-zone surprises", () => {
    expect(formatPolicyDate("2026-11-01")).toBe("1 November 2026");
    expect(formatPolicyDate("2027-01-31")).toBe("31 January 2027");
  });
});

describe("the privacy policy and the lead store", () => {
  it("names the campaign data kept with an enquiry, why, that it goes with the enquiry, and that no browser storage keeps it", () => {
    const text = textsOf(privacyPolicy).join("\n");
    expect(text).toMatch(
      /how you found us, so that we can tell which of our advertisements, newsletters and posts bring enquiries/,
    );
    for (const kept of ["utm_source", "gclid", "the first page you opened", "https://www.linkedin.com"]) {
      expect(text).toContain(kept);
    }
    expect(text).toContain(
      "no cookie, no localStorage or sessionStorage and no other storage in your browser",
    );
    expect(text).toContain("deleted with it, when its time is up or when you ask us to erase your data");
  });

  it("states the retention the store applies by default (ENQUIRY_RETENTION_DAYS) and the 72 h of retries", () => {
    const days = parseEnv({}, () => {}).ENQUIRY_RETENTION_DAYS;
    const text = textsOf(privacyPolicy).join("\n");
    expect(text).toContain(
      `saved on our web server (your name, e-mail address, phone number and message, with how you found us, the time it arrived and whether it has been delivered to our team) is deleted ${days} days after it arrived`,
    );
    expect(text).toContain("tries again for up to 72 hours");
  });

  it("states the quarantine's retention (ENQUIRY_SPAM_RETENTION_DAYS) and bound, and how to ask for one's data", () => {
    const days = parseEnv({}, () => {}).ENQUIRY_SPAM_RETENTION_DAYS;
    const text = textsOf(privacyPolicy).join("\n");
    expect(text).toContain(
      `is deleted ${days} days after it arrived. We keep at most 1,000 such enquiries of each kind`,
    );
    expect(text).toContain(`${MAX_SPAM_PER_REASON.toLocaleString("en-IN")} such enquiries`);
    const rights = privacyPolicy.sections.filter((section) => section.heading.startsWith("Your rights"));
    expect(rights).toHaveLength(2);
    for (const section of rights) {
      // Without PRIVACY_CONTACT, the footer's address.
      expect(section.html).toContain(`write to us at ${link(site.email, `mailto:${site.email}`)}`);
      expect(section.html).toMatch(/one month/);
    }
  });
});

describe("the privacy policy and the privacy notice (DPDP)", () => {
  const policyWith = (environment: Record<string, string>) => {
    const facts = privacyFactsFrom(parseEnv(environment, () => {}));
    const policy = policyFor("privacy-policy", facts);
    return { facts, policy, text: textsOf(policy).join("\n") };
  };

  it("says how to withdraw consent on the site: it links to the withdrawal page", () => {
    expect(blocksOf(privacyPolicy).join("\n")).toContain(`<a href="${WITHDRAWAL_PATH}">`);
  });

  it("names the processors an enquiry goes to: EmailJS, and a CRM or automation tool by webhook where connected", () => {
    const text = textsOf(privacyPolicy).join("\n");
    expect(text).toContain("EmailJS, our e-mail service");
    expect(text).toContain("where we have connected one, our CRM or automation tool");
    expect(text).toContain("through a webhook");
  });

  it("states one retention, ENQUIRY_RETENTION_DAYS, for the server's copy and the mailbox's, as the notice does", () => {
    const { facts, text } = policyWith({ ENQUIRY_RETENTION_DAYS: "45", ENQUIRY_SPAM_RETENTION_DAYS: "14" });
    expect(text).toContain("We keep your enquiry for 45 days after it arrives");
    expect(text).toContain(
      "is deleted 45 days after it arrived, and so is the copy that reached our team’s mailbox",
    );
    expect(text).toContain("is deleted 14 days after it arrived. We keep at most");
    expect(text).not.toMatch(/\b90 days after it arrived|two years/);
    for (const notice of privacyNoticeTexts) {
      const shown = privacyNoticePlainText(privacyNoticeBlocks(notice, facts));
      expect(shown.split("\n").find((line) => line.startsWith(notice.items.retention.label))).toContain("45");
    }
  });

  it("names who answers questions about the data (rule 9): the footer's contact, or PRIVACY_CONTACT", () => {
    const general = privacyPolicy.sections.map((section) => section.html).join("\n");
    expect(general).toContain(
      `are answered by our team at ${link(site.email, `mailto:${site.email}`)}, on ${link(site.phone.display, `tel:${site.phone.e164}`)}`,
    );
    expect(general).not.toContain("The person who answers");
    const named = policyWith({ PRIVACY_CONTACT: "Asha Rao <privacy@nirmaan.digital>" }).policy;
    const html = named.sections.map((section) => section.html).join("\n");
    const address = link("privacy@nirmaan.digital", "mailto:privacy@nirmaan.digital");
    expect(html).toContain(
      `<p>The person who answers your questions about how we process your personal data (rule 9 of the Digital Personal Data Protection Rules, 2025) is Asha Rao, at ${address}.</p>`,
    );
    expect(html).toContain(`write to us at ${address}`);
    expect(html).not.toContain("are answered by our team");
    // An address alone names no person: the team answers, at that address.
    const unnamed = policyWith({ PRIVACY_CONTACT: "privacy@nirmaan.digital" }).policy;
    expect(unnamed.sections.map((section) => section.html).join("\n")).toContain(
      `are answered by our team at ${address}`,
    );
  });

  it("fills a name with & or < escaped, and keeps a WhatsApp paragraph only when the site has a number", () => {
    const named = policyWith({ PRIVACY_CONTACT: "Rao & Sons <privacy@nirmaan.digital>" }).policy;
    expect(named.sections.map((section) => section.html).join("\n")).toContain("is Rao &amp; Sons, at");
    const all = (policy: Policy) =>
      [policy.intro, ...policy.sections.map((section) => section.html)].join("\n");
    expect(site.whatsapp).toBeDefined();
    expect(all(privacyPolicy)).toContain(`WhatsApp: ${site.whatsapp?.display}`);
    expect(all(privacyPolicy)).not.toContain("{{if");
  });
});
