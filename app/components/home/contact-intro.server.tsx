/** The contact section's heading and introduction, rendered on the server only. */
import { SectionIntro } from "~/components/home/section-intro";
import { contactIntro } from "~/content/contact";
import { site } from "~/content/site";

/** The contact section's heading and introduction: static, so rendered on the server only. */
export function ContactIntro() {
  return (
    <SectionIntro
      id="contact-heading"
      eyebrow={contactIntro.eyebrow}
      heading={contactIntro.heading}
      introduction={
        <>
          {contactIntro.introduction} {contactIntro.emailLead}{" "}
          <a
            href={`mailto:${site.email}`}
            className="font-semibold text-primary-dark underline underline-offset-4"
          >
            {site.email}
          </a>{" "}
          {contactIntro.phoneLead}{" "}
          <a
            href={`tel:${site.phone.e164}`}
            className="whitespace-nowrap font-semibold text-primary-dark underline underline-offset-4"
          >
            {site.phone.display}
          </a>
          .
        </>
      }
    />
  );
}
