/** The cookie policy's text. */
import { site } from "~/content/site";
import { contactBlocks } from "./contact";
import type { Policy } from "./types";

const mail = `[${site.email}](mailto:${site.email})`;

export const cookiePolicy: Policy = {
  path: "/cookie-policy",
  title: "Cookie Policy",
  summary: `Which cookies the ${site.name} website uses — none: no functional, statistics, marketing or social media cookies — how consent works and how to control cookies in your browser.`,
  updated: "2026-11-23",
  intro: [
    {
      kind: "paragraph",
      text: `This Cookie Policy explains what cookies are, which cookies the ${site.name} website uses and why, and how you can control them. Read it together with our [Privacy Policy](/privacy-policy), which explains how we handle personal information.`,
    },
    {
      kind: "paragraph",
      text: "In short: the website sets no cookies at all. It needs none to work, it sets none for statistics, marketing or social media, and no other company places cookies through it.",
    },
  ],
  sections: [
    {
      heading: "What cookies are",
      blocks: [
        {
          kind: "paragraph",
          text: "Cookies are small text files that a website stores in your browser when you visit it. Your browser sends them back to the same website on later requests, which lets the site remember something between one page and the next, such as a choice you made or the result of a form you sent.",
        },
        {
          kind: "paragraph",
          text: "“Session” cookies are deleted when you close your browser or after a short time; “persistent” cookies stay until the date they expire or until you delete them. “First-party” cookies are set by the website you are visiting; “third-party” cookies are set by another company, such as an advertiser or analytics provider.",
        },
      ],
    },
    {
      heading: "Types of cookies",
      blocks: [
        { kind: "paragraph", text: "Websites generally use cookies of four types:" },
        {
          kind: "list",
          items: [
            "Functional (strictly necessary) cookies make the website work: they remember a step you have just taken or keep the site secure. A website cannot work properly without them, so they do not need your consent.",
            "Statistics cookies count visits and record how visitors move around a website, so that its owner can understand and improve it.",
            "Marketing cookies follow your browsing across websites to build a profile of your interests and show you targeted advertising.",
            "Social media cookies are set by social networks whose buttons or embedded content appear on a page, and let those networks recognise you.",
          ],
        },
      ],
    },
    {
      heading: "Cookies we use",
      blocks: [
        {
          kind: "paragraph",
          text: "Today the website sets no cookies, first-party or third-party, and reads none that your browser may send.",
        },
        {
          kind: "paragraph",
          text: "After you send an enquiry through the contact form, the confirmation notice reaches the page you see next through its web address, not a cookie: the address carries a one-time code that holds no personal details, works once and expires after five minutes.",
        },
        {
          kind: "paragraph",
          text: "We set no statistics, marketing or social media cookies, and we do not embed content, fonts or scripts from other companies, so no third party can set cookies through our pages.",
        },
        {
          kind: "paragraph",
          text: "The anonymous page-speed measurements described in our [Privacy Policy](/privacy-policy) (how fast each page loads and responds, kept for at most 28 days) use no cookie and store nothing in your browser, and your browser sends none when it has Global Privacy Control or Do Not Track turned on.",
        },
      ],
    },
    {
      heading: "Your consent",
      blocks: [
        {
          kind: "paragraph",
          text: "Strictly necessary cookies do not require consent, and others do. Because the website sets no cookies at all, we do not show a cookie banner or a ‘Save preferences’ pop-up: there is nothing to agree to.",
        },
        {
          kind: "paragraph",
          text: "If we ever introduce statistics, marketing or social media cookies, we will update this policy first, and on your next visit we will ask for your consent through a ‘Save preferences’ pop-up before any such cookie is set. You would be able to accept or refuse each category separately, and to change your choice at any time.",
        },
      ],
    },
    {
      heading: "How to control cookies",
      blocks: [
        {
          kind: "paragraph",
          text: "Every modern browser lets you see, block and delete cookies, for all websites or for particular ones. You will find these controls in your browser’s settings, usually under Privacy or Security:",
        },
        {
          kind: "list",
          items: [
            "Google Chrome: Settings › Privacy and security › Third-party cookies, and Site settings › Cookies and site data;",
            "Mozilla Firefox: Settings › Privacy & Security › Cookies and Site Data;",
            "Apple Safari: Settings (or Preferences) › Privacy › Manage Website Data;",
            "Microsoft Edge: Settings › Cookies and site permissions › Manage and delete cookies and site data.",
          ],
        },
        {
          kind: "paragraph",
          text: "Blocking cookies does not change anything on this website: the enquiry form sends your message and shows its confirmation notice with or without cookies.",
        },
      ],
    },
    {
      heading: "Your data rights",
      blocks: [
        {
          kind: "paragraph",
          text: "Wherever you live, you may ask us which personal data we hold about you, ask us to correct or delete it, object to how we use it, or withdraw a consent you gave. Our [Privacy Policy](/privacy-policy) describes these rights in full, including those under the CCPA, the GDPR and India’s Digital Personal Data Protection Act, 2023.",
        },
        {
          kind: "paragraph",
          text: `To make a request, write to us at ${mail}. We respond within one month.`,
        },
      ],
    },
    {
      heading: "Contact us",
      blocks: contactBlocks("If you have any questions about our use of cookies, you can reach us at:"),
    },
  ],
};
