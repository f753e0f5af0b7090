import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { PolicyBody, policySectionId } from "~/components/policy-body";
import { formatPolicyDate } from "~/components/policy-page";
import { policies, privacyPolicy, termsOfService } from "~/content/policies/index.server";
import { privacyPolicyFor } from "~/content/policies/privacy";
import type { Policy, PolicyBlock } from "~/content/policies/types";
import { privacyFactsFrom } from "~/content/privacy-facts.server";
import { site } from "~/content/site";
import { WITHDRAWAL_PATH } from "~/content/withdrawal";
import { parseEnv } from "~/env.server";
import { MAX_SPAM_PER_REASON } from "~/leads/contract.server";
import { privacyNoticeTexts } from "~/privacy-notice";
import { privacyNoticeBlocks, privacyNoticePlainText } from "~/privacy-notice/text";

const routes = ["/terms-conditions", "/privacy-policy", "/cookie-policy"];

function blocksOf(policy: Policy): PolicyBlock[] {
  return [...policy.intro, ...policy.sections.flatMap((section) => section.blocks)];
}

function textsOf(policy: Policy): string[] {
  return [
    policy.title,
    policy.summary,
    ...policy.sections.map((section) => section.heading),
    ...blocksOf(policy).flatMap((block) => (block.kind === "paragraph" ? [block.text] : block.items)),
  ];
}

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

  it("has no empty intro, section, paragraph or list", () => {
    expect(policy.intro.length).toBeGreaterThan(0);
    for (const section of policy.sections) {
      expect(section.heading.trim(), "a section heading").not.toBe("");
      expect(section.blocks.length, section.heading).toBeGreaterThan(0);
    }
    for (const block of blocksOf(policy)) {
      const texts = block.kind === "paragraph" ? [block.text] : block.items;
      expect(texts.length).toBeGreaterThan(0);
      for (const text of texts) expect(text.trim().length).toBeGreaterThan(4);
    }
  });

  it("gives the agency's e-mail address and ends with a way to contact us", () => {
    expect(textsOf(policy).some((text) => text.includes(site.email))).toBe(true);
    const last = policy.sections.at(-1);
    expect(last?.heading).toBe("Contact us");
    expect(JSON.stringify(last)).toContain(site.phone.display);
  });

  it("links only to our own pages, our e-mail and our phone", () => {
    const allowed = new Set([...routes, WITHDRAWAL_PATH, `mailto:${site.email}`, `tel:${site.phone.e164}`]);
    for (const text of textsOf(policy)) {
      const withoutLinks = text.replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_, label: string, href: string) => {
        expect(allowed, `link in: ${text}`).toContain(href);
        return label;
      });
      expect(withoutLinks, "half-written link markup").not.toMatch(/\[|\]|\]\(/);
    }
  });

  it("contains no placeholder copy", () => {
    for (const text of textsOf(policy)) expect(text).not.toMatch(/lorem|ipsum|todo|tbd|\{[a-z]+\}/i);
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
    expect(html).toContain('<h2 id="your-rights-under-the-ccpa"');
    expect(html).not.toContain("<h3");
    expect(html).toContain(`<a href="mailto:${site.email}"`);
    expect(html).not.toContain("](");
  });

  it("renders sections as h3 without ids inside a dialog", () => {
    const html = renderToStaticMarkup(createElement(PolicyBody, { policy: termsOfService, headingLevel: 3 }));
    expect(html).toContain(">Acceptance of these terms</h3>");
    expect(html).not.toContain("<h2");
    expect(html).not.toContain(" id=");
    expect(html).toContain('<a href="/privacy-policy"');
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
      const said = JSON.stringify(section);
      expect(said).toContain(`our general e-mail address, [${site.email}](mailto:${site.email})`);
      expect(said).toMatch(/one month/);
    }
  });
});

describe("the privacy policy and the privacy notice (DPDP)", () => {
  const policyWith = (environment: Record<string, string>) => {
    const facts = privacyFactsFrom(parseEnv(environment, () => {}));
    return { facts, text: textsOf(privacyPolicyFor(facts)).join("\n") };
  };

  it("says how to withdraw consent on the site: it links to the withdrawal page", () => {
    expect(textsOf(privacyPolicy).join("\n")).toContain(`](${WITHDRAWAL_PATH})`);
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
    const general = textsOf(privacyPolicy).join("\n");
    expect(general).toContain(
      `are answered by our team at [${site.email}](mailto:${site.email}), on [${site.phone.display}](tel:${site.phone.e164})`,
    );
    const { text } = policyWith({ PRIVACY_CONTACT: "Asha Rao <privacy@nirmaan.digital>" });
    expect(text).toContain(
      "The person who answers your questions about how we process your personal data (rule 9 of the Digital Personal Data Protection Rules, 2025) is Asha Rao, at [privacy@nirmaan.digital](mailto:privacy@nirmaan.digital).",
    );
    expect(text).toContain(
      "write to Asha Rao, who answers for us on personal data, at [privacy@nirmaan.digital](mailto:privacy@nirmaan.digital)",
    );
    expect(text).not.toContain("our general e-mail address, [");
  });
});
