/** The terms of service's text. */
import { site } from "~/content/site";
import { contactBlocks } from "./contact";
import type { Policy } from "./types";

export const termsOfService: Policy = {
  path: "/terms-conditions",
  title: "Terms of Service",
  summary: `The terms that apply when you use the ${site.name} website: acceptable use, copyright and intellectual property, disclaimers, liability, governing law and how to reach us.`,
  updated: "2026-11-01",
  intro: [
    {
      kind: "paragraph",
      text: `These Terms of Service govern your use of the website of ${site.name} (“${site.shortName}”, “we”, “us” or “our”), a software and digital-product agency based in ${site.address.locality}, ${site.address.country}. Please read them carefully: by using the website you agree to them.`,
    },
    {
      kind: "paragraph",
      text: "They cover the website only. When we design, build or support software for you, that work is governed by the separate written agreement we sign with you, and that agreement prevails over these terms wherever the two differ.",
    },
  ],
  sections: [
    {
      heading: "Acceptance of these terms",
      blocks: [
        {
          kind: "paragraph",
          text: "By visiting, browsing or sending an enquiry through this website you confirm that you have read, understood and accepted these terms. If you do not agree with them, please do not use the website.",
        },
        {
          kind: "paragraph",
          text: "If you use the website on behalf of a company or another organisation, you confirm that you are authorised to accept these terms on its behalf.",
        },
      ],
    },
    {
      heading: "Use of the website",
      blocks: [
        {
          kind: "paragraph",
          text: "You may browse the website and share links to it for any lawful purpose, including to learn about our services and to contact us about a project. When you use it, you agree not to:",
        },
        {
          kind: "list",
          items: [
            "break any law or regulation that applies to you, or encourage anyone else to do so;",
            "send enquiries that are false, misleading, abusive or unsolicited advertising, or that impersonate another person or organisation;",
            "attempt to gain unauthorised access to the website, its servers or any system connected to it, or probe, scan or test them for vulnerabilities without our written permission;",
            "disrupt the website or place an unreasonable load on it, for example through automated requests, scraping or denial-of-service attacks;",
            "upload or transmit viruses, malware or any other harmful code.",
          ],
        },
        {
          kind: "paragraph",
          text: "We may restrict or suspend access to the website, in whole or in part, to protect it or its visitors, or while we maintain or improve it. We aim to keep it available at all times, but we do not promise that it will be uninterrupted or free of errors.",
        },
      ],
    },
    {
      heading: "Copyright",
      blocks: [
        {
          kind: "paragraph",
          text: `Unless stated otherwise, the text, graphics, illustrations, logos, page layouts and source code of this website are © ${site.foundingYear}–present ${site.name}, and are protected by the Copyright Act, 1957 and by international copyright treaties.`,
        },
        {
          kind: "paragraph",
          text: `You may view, print or download pages for your own personal, non-commercial reference. Any other copying, reproduction, distribution or republication, in whole or in part, needs our prior written permission: write to us at [${site.email}](mailto:${site.email}).`,
        },
        {
          kind: "paragraph",
          text: "If you believe that material on this website infringes your copyright, tell us which material and why, and we will review it promptly and remove it where appropriate.",
        },
      ],
    },
    {
      heading: "Privacy",
      blocks: [
        {
          kind: "paragraph",
          text: "Your privacy matters to us. The website does not ask you to create an account, and we collect only what you choose to send us through the enquiry form plus the basic technical data every web server records.",
        },
        {
          kind: "paragraph",
          text: "Our [Privacy Policy](/privacy-policy) explains what we collect, why, how long we keep it and the rights you have, and our [Cookie Policy](/cookie-policy) explains the few cookies the website uses. Both form part of these terms.",
        },
      ],
    },
    {
      heading: "Intellectual property",
      blocks: [
        {
          kind: "paragraph",
          text: `The ${site.name} name, logo and brand elements are our trade marks. Other names, logos and marks that appear on the website belong to their respective owners, and their appearance does not imply any endorsement by them or any affiliation with them.`,
        },
        {
          kind: "paragraph",
          text: "Nothing on this website grants you a licence or right to use any trade mark, design, software or other intellectual property of ours or of any third party. Case studies and examples describe our work; the intellectual property in the software we build for clients is governed by our agreements with those clients.",
        },
        {
          kind: "paragraph",
          text: "Ideas, briefs and documents you share with us in an enquiry remain yours. We use them only to understand and answer your enquiry, and we are glad to sign a non-disclosure agreement before you share anything confidential.",
        },
      ],
    },
    {
      heading: "Disclaimer",
      blocks: [
        {
          kind: "paragraph",
          text: "The website and its content are provided “as is” and “as available” for general information. We work to keep them accurate and up to date, but we make no warranty, express or implied, that they are complete, current, accurate or fit for any particular purpose.",
        },
        {
          kind: "paragraph",
          text: "Descriptions of our services, timelines, team capabilities and outcomes are indicative and do not form an offer. Scope, price and delivery are agreed only in a written proposal or contract. Nothing on the website is legal, financial or professional advice for your particular situation.",
        },
        {
          kind: "paragraph",
          text: "Links to other websites are provided for convenience only. We do not control those websites and are not responsible for their content, availability or privacy practices.",
        },
      ],
    },
    {
      heading: "Limitation of liability",
      blocks: [
        {
          kind: "paragraph",
          text: `To the fullest extent permitted by law, ${site.name}, its directors, employees and partners are not liable for any indirect, incidental, special, consequential or punitive loss or damage, including loss of profit, revenue, data or goodwill, that arises from your use of, or inability to use, this website or its content, even if we were told that such loss was possible.`,
        },
        {
          kind: "paragraph",
          text: "Because the website is offered free of charge, our total liability to you for any claim arising from it is limited to ₹5,000 (five thousand Indian rupees).",
        },
        {
          kind: "paragraph",
          text: "Nothing in these terms limits or excludes any liability that cannot be limited or excluded under the law that applies, including liability for fraud or for death or personal injury caused by negligence.",
        },
      ],
    },
    {
      heading: "Indemnification",
      blocks: [
        {
          kind: "paragraph",
          text: `You agree to indemnify and hold harmless ${site.name}, its directors, employees and partners against any claim, demand, loss, liability or expense, including reasonable legal fees, that arises from your breach of these terms, your misuse of the website or your infringement of any right of another person.`,
        },
      ],
    },
    {
      heading: "Modifications",
      blocks: [
        {
          kind: "paragraph",
          text: "We may revise these terms from time to time, for example when we change the website or when the law changes. The “Last updated” date at the top of this page shows when they last changed, and the revised terms apply from that date.",
        },
        {
          kind: "paragraph",
          text: "We may also change, add or remove content and features of the website at any time without notice. If you keep using the website after a change, you accept the revised terms, so please check this page now and then.",
        },
      ],
    },
    {
      heading: "Governing law and jurisdiction",
      blocks: [
        {
          kind: "paragraph",
          text: `These terms, and any dispute or claim arising from them or from your use of the website, are governed by the laws of India. The courts at ${site.address.locality}, ${site.address.region} have exclusive jurisdiction over any such dispute.`,
        },
        {
          kind: "paragraph",
          text: "If a court finds any part of these terms invalid or unenforceable, that part is limited or removed to the minimum extent necessary and the rest of the terms remain in full effect. If we do not enforce a provision straight away, we have not waived our right to enforce it later.",
        },
      ],
    },
    {
      heading: "Contact us",
      blocks: contactBlocks("Questions about these terms are welcome. You can reach us at:"),
    },
  ],
};
