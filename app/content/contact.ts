/** The contact section's heading and introduction; the enquiry form has its own content. */
export const contactIntro = {
  eyebrow: "Contact",
  heading: "Let's build something purposeful",
  introduction:
    "Tell us about your idea, your product or the team you need. A founder or delivery lead replies within one working day — usually with a few good questions and a time to talk.",
  emailLead: "Prefer e-mail or a call? Write to",
  phoneLead: "or ring",
} as const;
