/** The footer's columns (who we are, address, contact, our case studies and insights, service links), rendered on the server only. */
import type { ContactEntry } from "~/content/entries";
import { footer } from "~/content/generated/footer.server";
import { formatAddress, site } from "~/content/site";
import { BrandLogo } from "./brand-logo";
import { footerLinkClass as linkClass } from "./footer-styles";
import { WhatsAppLink } from "./whatsapp-link";

/** The footer's static part: who we are, where to find us (the site's contact details, unless /admin's preview passes an entry's), and what to ask us for. */
export function FooterColumns({ contact = site }: { contact?: ContactEntry } = {}) {
  return (
    <div className="mx-auto grid max-w-7xl gap-12 px-6 pt-16 pb-10 md:grid-cols-2 lg:grid-cols-[1.4fr_1fr_1fr_1fr]">
      <div className="grid content-start gap-5">
        <BrandLogo tone="light" />
        <p className="max-w-sm text-white/75">{footer.tagline}</p>
        <address className="grid gap-3 not-italic">
          <a href={contact.address.mapsUrl} className={linkClass} rel="noopener noreferrer" target="_blank">
            {formatAddress(contact.address)}
            <span className="sr-only"> (opens a map in a new tab)</span>
          </a>
          <a href={`mailto:${contact.email}`} className={`${linkClass} font-semibold`}>
            {contact.email}
          </a>
          <a href={`tel:${contact.phone.e164}`} className={`${linkClass} font-semibold`}>
            {contact.phone.display}
          </a>
          <WhatsAppLink
            className={`${linkClass} inline-flex items-center gap-2 font-semibold`}
            contact={contact}
          />
        </address>
        <ul className="flex gap-6 font-semibold">
          <li>
            <a href="/case-studies" className={linkClass}>
              {footer.caseStudies}
            </a>
          </li>
          <li>
            <a href="/insights" className={linkClass}>
              {footer.insights}
            </a>
          </li>
        </ul>
      </div>
      {footer.groups.map((group, index) => (
        <nav key={group.heading} aria-labelledby={`footer-group-${index + 1}`}>
          <h2
            id={`footer-group-${index + 1}`}
            className="font-bold text-sm text-white uppercase tracking-widest"
          >
            {group.heading}
          </h2>
          <ul className="mt-5 grid gap-3">
            {group.items.map((item) => (
              <li key={item}>
                <a href="/#contact" className={linkClass}>
                  {item}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      ))}
    </div>
  );
}
