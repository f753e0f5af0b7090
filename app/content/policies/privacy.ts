/**
 * The privacy policy's text, saying what the server's configuration sets (retention, privacy
 * contact) as the privacy notice does.
 */
import type { PrivacyFacts } from "~/content/privacy-facts.server";
import { site } from "~/content/site";
import { whatsAppHref } from "~/content/whatsapp";
import { contactBlocks } from "./contact";
import type { Policy, PolicyBlock } from "./types";

const mail = `[${site.email}](mailto:${site.email})`;

/** Where a person writes about their data: PRIVACY_CONTACT when set, else the general address. */
/** WhatsApp as a way to reach us, when the site has a number: what a chat there involves. */
function whatsAppBlocks(): PolicyBlock[] {
  if (whatsAppHref() === null || site.whatsapp === undefined) return [];
  return [
    {
      kind: "paragraph",
      text: `You can also reach us on WhatsApp, at ${site.whatsapp.display}, through the “Chat on WhatsApp” link on our pages. The link only opens WhatsApp with a short greeting you can change before sending it (with JavaScript, naming the campaign your visit came from); our website sends WhatsApp nothing, and nothing is loaded from WhatsApp until you tap it. A chat you start there is carried by WhatsApp (Meta Platforms), under WhatsApp’s own terms and privacy policy: we receive your WhatsApp name, your phone number and what you write, and keep the conversation only as long as we need it to answer you and follow up.`,
    },
  ];
}

function writeTo({ contact, contactConfigured }: PrivacyFacts): string {
  const link = `[${contact.email}](mailto:${contact.email})`;
  if (!contactConfigured) return `write to us at our general e-mail address, ${link}`;
  return contact.name
    ? `write to ${contact.name}, who answers for us on personal data, at ${link}`
    : `write to us at ${link}`;
}

/** Who answers questions about the data (DPDP Rules, rule 9). */
function privacyContactStatement({ contact, contactConfigured }: PrivacyFacts): string {
  const rule = "(rule 9 of the Digital Personal Data Protection Rules, 2025)";
  if (contactConfigured && contact.name) {
    return `The person who answers your questions about how we process your personal data ${rule} is ${contact.name}, at [${contact.email}](mailto:${contact.email}).`;
  }
  return `Your questions about how we process your personal data ${rule} are answered by our team at [${contact.email}](mailto:${contact.email}), on [${site.phone.display}](tel:${site.phone.e164}) and by post at the address under “Contact us”.`;
}

/**
 * The privacy policy, with what it says about the server's configuration (retention, the
 * privacy contact) taken from the same facts as the privacy notice beside the enquiry form.
 */
export const privacyPolicyFor = (facts: PrivacyFacts): Policy => ({
  path: "/privacy-policy",
  title: "Privacy Policy",
  summary: `What personal information ${site.name} collects through its website, how we use and protect it, how long we keep it, and your rights under the CCPA, the GDPR and India’s DPDP Act.`,
  updated: "2026-12-07",
  intro: [
    {
      kind: "paragraph",
      text: `At ${site.name} we respect the privacy of everyone who visits our website. This Privacy Policy explains what information we collect when you use the website or send us an enquiry, how we use it, and the choices and rights you have.`,
    },
    {
      kind: "paragraph",
      text: `${site.name}, ${site.address.locality}, ${site.address.country}, is responsible for the information described here (the “data controller” or “data fiduciary”). The policy applies to this website only, not to information we receive offline or through other channels. By using the website you agree to this policy.`,
    },
  ],
  sections: [
    {
      heading: "Information we collect",
      blocks: [
        {
          kind: "paragraph",
          text: "You can browse the whole website without telling us who you are: there is no account, no sign-up and no newsletter. We collect personal information only in two ways.",
        },
        {
          kind: "paragraph",
          text: "When you send us an enquiry through the contact form, we receive exactly what you type into it:",
        },
        {
          kind: "list",
          items: [
            "your name;",
            "your e-mail address;",
            "your country calling code and phone number;",
            "your message, with anything you choose to tell us about your project or company.",
          ],
        },
        {
          kind: "paragraph",
          text: "With your enquiry we also keep a note of how you found us, so that we can tell which of our advertisements, newsletters and posts bring enquiries and which bring spam. It holds the address of the first page you opened on our website, without anything else from that address except the campaign tags a link to us may carry (such as utm_source, utm_medium and utm_campaign) and an advertising platform’s click identifier (such as Google’s gclid); and, when your browser runs JavaScript, the name of the website whose link you followed (for example https://www.linkedin.com, never the page you were reading there). It is read only when you press Submit, from the page itself and from the address your browser sends with the form: no cookie, no localStorage or sessionStorage and no other storage in your browser is used to keep it, and it is forgotten when you close the tab. It is part of your enquiry: included in the e-mail that brings it to our team, and deleted with it, when its time is up or when you ask us to erase your data.",
        },
        {
          kind: "paragraph",
          text: "When you visit any page, our web server records basic technical information about the request, as described under Log files below.",
        },
        {
          kind: "paragraph",
          text: "If you write to us or call us directly, we receive the information you choose to share, such as your e-mail address, phone number and the contents of your message or any attachments.",
        },
        ...whatsAppBlocks(),
      ],
    },
    {
      heading: "How we use your information",
      blocks: [
        { kind: "paragraph", text: "We use the information we collect to:" },
        {
          kind: "list",
          items: [
            "read and reply to your enquiry, and follow up on it by e-mail or phone as you would expect;",
            "prepare a proposal, estimate or contract when you ask us for one;",
            "keep the website running, secure and reliable, including detecting and preventing spam, abuse and fraud;",
            "understand, in aggregate, how the website is used so that we can fix problems and improve it;",
            "meet our legal, accounting and regulatory obligations, and establish or defend legal claims.",
          ],
        },
        {
          kind: "paragraph",
          text: "We rely on your consent when you send us an enquiry (you may withdraw it at any time), on our legitimate interest in running and protecting the website, and on our legal obligations where they apply. The privacy notice beside the contact form, in English and in Hindi, says what sending the form consents to, and with each enquiry we keep a record of which version of that notice you were shown and in which language. We never use your information for automated decision-making or profiling, and we never add you to a mailing list without asking.",
        },
        {
          kind: "paragraph",
          text: "When you send an enquiry, our web server first saves it, so that it reaches us even when e-mail delivery fails for a while. The server then passes it on to the service providers (processors) that help us answer it, each only to deliver it to us, under a contract that requires it to keep it confidential and secure:",
        },
        {
          kind: "list",
          items: [
            "EmailJS, our e-mail service, which brings the enquiry to our team’s mailbox; if it is unavailable, the server tries again for up to 72 hours;",
            "where we have connected one, our CRM or automation tool, which receives the enquiry from our server through a webhook.",
          ],
        },
        {
          kind: "paragraph",
          text: "Apart from such service providers, we share your information only when the law requires it, or with your permission.",
        },
      ],
    },
    {
      heading: "Log files",
      blocks: [
        {
          kind: "paragraph",
          text: "Like most websites, ours follows a standard procedure of using log files. Each time a page or file is requested, the server records:",
        },
        {
          kind: "list",
          items: [
            "your Internet Protocol (IP) address;",
            "the date and time of the request;",
            "the page or file requested and the page that referred you, if your browser sends it;",
            "your browser type and version, as your browser reports it;",
            "the response status and the amount of data sent.",
          ],
        },
        {
          kind: "paragraph",
          text: "This information is not linked to anything that identifies you personally. We use it to keep the service secure (for example, to limit how many enquiries one address can send in a short time), to diagnose faults and to understand overall traffic.",
        },
        {
          kind: "paragraph",
          text: "Page-speed measurements. To learn how fast the website is for real visitors, and not only in our own tests, your browser measures how quickly each page appears and responds to you, using Google’s open-source web-vitals code served from our own server. The first time you leave a page or switch away from it, your browser sends these figures once to our server, and to no one else:",
        },
        {
          kind: "list",
          items: [
            "which of our pages it was (any other address is recorded only as “a missing page”);",
            "how long the server took to answer, how long the page took to show its first and its largest content, how much its layout shifted while loading, and how quickly it responded to your clicks, taps and key presses (the Core Web Vitals: TTFB, FCP, LCP, CLS and INP), each rated good, needs improvement or poor;",
            "whether the page was opened, reloaded or reached with the Back button;",
            "whether the browser window is phone-, tablet- or desktop-sized, judged from its width;",
            "roughly how powerful the device is, as the browser reports it: its number of processor cores, rounded down to 1, 2, 4, 8 or 16, and its memory in one of six steps from 0.25 to 8 GB, so that we can see how fast the site is on budget phones;",
            "the hour in which the figures arrived.",
          ],
        },
        {
          kind: "paragraph",
          text: "These measurements are anonymous. We store them without your IP address, without your browser type and without any cookie or identifier, so they cannot be linked to you. No cookie is used and nothing is stored in your browser. We keep them for at most 28 days and then delete them automatically; the file that holds them also has a fixed maximum size, and when it is full the oldest figures are deleted first. We use them only as totals, to find and fix slow pages.",
        },
        {
          kind: "paragraph",
          text: "Nothing is measured or sent when JavaScript is turned off, or when your browser sends a Global Privacy Control or Do Not Track signal. The request that carries the figures is recorded in the log files like any other request.",
        },
        {
          kind: "paragraph",
          text: "Taps on “Chat on WhatsApp”. When you tap that link on a page that runs JavaScript, your browser also sends our server one count, with the same page, window size and hour as above and the name of the campaign your visit came from (its utm_campaign or utm_source tag, at most 40 letters, digits and spaces), so that we can tell which campaigns start conversations. It is anonymous and kept, and not sent, in the same way as the page-speed measurements.",
        },
      ],
    },
    {
      heading: "Advertising partners",
      blocks: [
        {
          kind: "paragraph",
          text: "This website shows no advertisements. We work with no advertising partners or ad networks, and we use no tracking pixels, advertising beacons or third-party analytics: the only measurement is our own anonymous page-speed report, described under “Log files”. Every page, font and image is served from our own server, so no other company learns about your visit from us.",
        },
        {
          kind: "paragraph",
          text: "If that ever changes, we will update this policy before any such service is switched on. Third-party ad servers and networks use their own cookies and similar technologies, so their own privacy policies would then apply to them. We would have no access to or control over the cookies they use, and we would link to their policies here so that you can read them and opt out.",
        },
      ],
    },
    {
      heading: "Your rights under the CCPA",
      blocks: [
        {
          kind: "paragraph",
          text: "Under the California Consumer Privacy Act (CCPA), as amended by the California Privacy Rights Act, California consumers have the right to:",
        },
        {
          kind: "list",
          items: [
            "request that we disclose the categories and specific pieces of personal data we have collected about them, and why;",
            "request that we delete any personal data we have collected about them;",
            "request that we correct inaccurate personal data about them;",
            "request that a business that sells or shares their personal data not do so (opt out of sale or sharing).",
          ],
        },
        {
          kind: "paragraph",
          text: "We do not sell or share your personal data, for money or for anything else, and we have not done so in the past twelve months. We will never discriminate against you for exercising any of these rights.",
        },
        {
          kind: "paragraph",
          text: `To make a request, ${writeTo(facts)}, and give the e-mail address or phone number you used in your enquiry. If you make a request, we have one month to respond to you, counted from the day we receive it. We may need to confirm your identity first, for example by replying to that e-mail address.`,
        },
      ],
    },
    {
      heading: "Your rights under the GDPR and India’s DPDP Act",
      blocks: [
        {
          kind: "paragraph",
          text: "Wherever you live, we extend the same core rights to you. If you are in the European Economic Area or the United Kingdom, the General Data Protection Regulation (GDPR) gives you the right to:",
        },
        {
          kind: "list",
          items: [
            "access the personal data we hold about you and receive a copy of it;",
            "have inaccurate or incomplete data corrected;",
            "have your data erased;",
            "restrict or object to our processing of your data;",
            "receive your data in a portable format;",
            "withdraw your consent at any time, without affecting processing that took place before;",
            "complain to your local data protection authority.",
          ],
        },
        {
          kind: "paragraph",
          text: "In India, the Digital Personal Data Protection Act, 2023 (DPDP Act) gives you, as a data principal, the right to know what personal data we process about you and how, to have it corrected, completed, updated or erased, to withdraw your consent, to have your grievances redressed, and to nominate another person to exercise your rights if you die or become incapacitated. If we cannot resolve a grievance, you may approach the Data Protection Board of India.",
        },
        {
          kind: "paragraph",
          text: "You can withdraw your consent yourself, at any time and as easily as you gave it, on our [withdrawal page](/privacy/withdraw), in English or in Hindi: give the reference shown after you sent your enquiry (such as NRM-7KQ2-M9XD) and the e-mail address you sent it with. We then erase every enquiry sent with that e-mail address from our website at once, tell the tools that received a copy (our CRM or automation tool) to erase theirs, and our team deletes the e-mail that brought it. The page gives the same answer whether or not an enquiry matched, so no one can use it to learn whether you wrote to us, and it limits how often anyone may try. What we keep afterwards holds nothing you wrote: the enquiry's internal identifier and its reference until our team has deleted that e-mail, and a count of withdrawals per day.",
        },
        {
          kind: "paragraph",
          text: `To exercise any of these rights, or to raise a grievance, ${writeTo(facts)}, giving the e-mail address or phone number you used in your enquiry. We respond within one month of receiving your request.`,
        },
        { kind: "paragraph", text: privacyContactStatement(facts) },
        {
          kind: "paragraph",
          text: "When you ask for your data or for its deletion, we search every copy of your enquiries that our website holds, by that e-mail address and by that phone number, including any enquiry our spam filters set aside. We send you what we find, or delete all of it for good, including on the server that is delivering it to our team, and tell you how many enquiries were deleted.",
        },
      ],
    },
    {
      heading: "Children’s information",
      blocks: [
        {
          kind: "paragraph",
          text: "Protecting children online matters to us, and we encourage parents and guardians to observe, take part in and guide their children’s online activity.",
        },
        {
          kind: "paragraph",
          text: `Our website and services are meant for businesses and adults. We do not knowingly collect any personal information from children under the age of 13. If you believe that your child has given us this kind of information through our website, please contact us at ${mail} straight away and we will do our best to remove it from our records promptly.`,
        },
      ],
    },
    {
      heading: "How long we keep your information",
      blocks: [
        {
          kind: "paragraph",
          text: `We keep your enquiry for ${facts.retentionDays} days after it arrives, then delete it: the copy saved on our web server (your name, e-mail address, phone number and message, with how you found us, the time it arrived and whether it has been delivered to our team) is deleted ${facts.retentionDays} days after it arrived, and so is the copy that reached our team’s mailbox. The only exception is an enquiry still being delivered at that point, which is deleted as soon as delivery ends. This is the retention the privacy notice beside the contact form states.`,
        },
        {
          kind: "paragraph",
          text: "If you become a client, our correspondence about the work is kept for as long as our contract and Indian tax and accounting law require.",
        },
        {
          kind: "paragraph",
          text: `Our spam filters can mistake a real enquiry for spam (for example, when a browser fills in a hidden form field on its own). So an enquiry they catch is not thrown away at once: it is kept apart, is not delivered to our team unless we find it was caught by mistake, and is deleted ${facts.spamRetentionDays} days after it arrived. We keep at most 1,000 such enquiries of each kind; beyond that the oldest are deleted first.`,
        },
        {
          kind: "paragraph",
          text: "Server log files are kept for up to 90 days, then deleted, unless we need them longer to investigate a security incident. When information is no longer needed, we delete or anonymise it.",
        },
      ],
    },
    {
      heading: "How we protect your information",
      blocks: [
        {
          kind: "paragraph",
          text: "We take reasonable technical and organisational measures to protect your information against loss, misuse and unauthorised access: the website is served over HTTPS, enquiries are only available to the staff who need to answer them, access to our systems is restricted and logged, and our providers are bound by confidentiality.",
        },
        {
          kind: "paragraph",
          text: "No method of transmitting or storing data is completely secure, so we cannot guarantee absolute security. If a breach ever affects your personal data, we will notify you and the relevant authorities as the law requires.",
        },
      ],
    },
    {
      heading: "Changes to this policy",
      blocks: [
        {
          kind: "paragraph",
          text: "We may update this Privacy Policy from time to time. The “Last updated” date at the top shows when it last changed. If we make a significant change, for example to how we use your information, we will say so clearly on this page.",
        },
      ],
    },
    {
      heading: "Contact us",
      blocks: contactBlocks(
        "If you have questions about this policy or about your personal information, we are glad to help. You can reach us at:",
      ),
    },
  ],
});
