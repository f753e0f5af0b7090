import type { ReactNode } from "react";
import { useHomeContent } from "~/components/home/home-content";
import { SectionIntro } from "~/components/home/section-intro";
import { site } from "~/content/site";

/** The contact section: heading and introduction, then the enquiry form passed as children. */
export function ContactSection({ children }: { children?: ReactNode }) {
  const { contactIntro } = useHomeContent();
  return (
    <section id="contact" aria-labelledby="contact-heading" className="py-20 lg:py-28">
      <div data-reveal="" className="mx-auto grid max-w-7xl gap-10 px-6">
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
        {children}
      </div>
    </section>
  );
}
