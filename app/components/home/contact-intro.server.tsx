/** The contact section's heading and introduction, rendered on the server only. */
import { SectionIntro } from "~/components/home/section-intro";
import { WhatsAppLink } from "~/components/whatsapp-link";
import { home } from "~/content/generated/home.server";
import { site } from "~/content/site";

/**
 * The contact section's heading and introduction, and the "Chat on WhatsApp" link beside the
 * form: static, so rendered on the server only.
 */
export function ContactIntro() {
  const { contact } = home;
  return (
    <>
      <SectionIntro
        id="contact-heading"
        eyebrow={contact.eyebrow}
        heading={contact.heading}
        lead={
          <>
            {contact.lead} {contact.emailLead}{" "}
            <a
              href={`mailto:${site.email}`}
              className="font-semibold text-primary-dark underline underline-offset-4"
            >
              {site.email}
            </a>{" "}
            {contact.phoneLead}{" "}
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
      <p className="mt-6 flex justify-center">
        <WhatsAppLink className="inline-flex items-center gap-2 rounded-full border border-emerald-700 px-5 py-2.5 font-semibold text-emerald-800 transition-colors hover:bg-emerald-50" />
      </p>
    </>
  );
}
