/** The contact section's heading and introduction, rendered on the server only. */
import { SectionIntro } from "~/components/home/section-intro";
import { WhatsAppLink } from "~/components/whatsapp-link";
import type { ContactEntry } from "~/content/entries";
import { home } from "~/content/generated/home.server";
import { site } from "~/content/site";

/**
 * The contact section's heading and introduction (content/home.yml), and the "Chat on WhatsApp"
 * link beside the form: static, so rendered on the server only. The e-mail, phone and WhatsApp
 * number are the site's, unless /admin's preview passes an entry's.
 */
export function ContactIntro({ contact = site }: { contact?: ContactEntry } = {}) {
  const words = home.contact;
  return (
    <>
      <SectionIntro
        id="contact-heading"
        eyebrow={words.eyebrow}
        heading={words.heading}
        lead={
          <>
            {words.lead} {words.emailLead}{" "}
            <a
              href={`mailto:${contact.email}`}
              className="font-semibold text-primary-dark underline underline-offset-4"
            >
              {contact.email}
            </a>{" "}
            {words.phoneLead}{" "}
            <a
              href={`tel:${contact.phone.e164}`}
              className="whitespace-nowrap font-semibold text-primary-dark underline underline-offset-4"
            >
              {contact.phone.display}
            </a>
            .
          </>
        }
      />
      <p className="mt-6 flex justify-center">
        <WhatsAppLink
          className="inline-flex items-center gap-2 rounded-full border border-emerald-700 px-5 py-2.5 font-semibold text-emerald-800 transition-colors hover:bg-emerald-50"
          contact={contact}
        />
      </p>
    </>
  );
}
