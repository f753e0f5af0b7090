/** The privacy notice in English. */
import { site } from "~/content/site";
import type { PrivacyNoticeText } from "./types";

export const privacyNoticeEnglish: PrivacyNoticeText = {
  language: "en",
  languageName: "English",
  heading: "Privacy notice",
  lead: `Sending this form is your consent for ${site.name} to use what you send only as set out here. You can withdraw it at any time.`,
  items: {
    collected: {
      label: "What we collect",
      text: "your name, e-mail, phone number and message, and the page and campaign you came to us from.",
    },
    purpose: {
      label: "Why",
      text: "to answer this enquiry, and to know which campaign brought it. We never add you to a mailing list.",
    },
    recipients: {
      label: "Who receives it",
      text: "our team, and the tools we answer with — our e-mail service (EmailJS) and, where we use one, our CRM or automation tool.",
    },
    retention: {
      label: "How long we keep it",
      text: "{retentionDays} days from its arrival; then we delete it from our web server and from our team’s mailbox.",
    },
    rights: {
      label: "Your choices",
      text: "withdraw your consent and have your data erased [on our withdrawal page](withdraw), with the reference shown once you send this form, or [by e-mail](erase); or [have it corrected](correct). Each e-mail link opens a message to {privacyContact}, already written.",
    },
    complaint: {
      label: "Complaints",
      text: "write to {privacyContact}. If we have not resolved it within one month, you can complain to the Data Protection Board of India.",
    },
  },
  policy: "All the details are in our [Privacy Policy](policy).",
  requests: {
    erase: {
      subject: "Withdraw my consent and erase my data",
      body: "Hello,\n\nPlease stop using and erase the personal data of the enquiry I sent through your website.\n\nThe e-mail address or phone number I gave:\n",
    },
    correct: {
      subject: "Correct my data",
      body: "Hello,\n\nPlease correct the personal data of the enquiry I sent through your website.\n\nThe e-mail address or phone number I gave:\nWhat should change:\n",
    },
  },
};
