import { footerGroups } from "~/content/footer";
import { formatAddress, site } from "~/content/site";
import { BrandLogo } from "./brand-logo";
import { PolicyDialogLink } from "./policy-dialog-link";
import { ScrollToTop } from "./scroll-to-top";

const linkClass = "rounded-sm text-white/75 transition-colors hover:text-white";

export function SiteFooter({ year }: { year: number }) {
  return (
    <footer className="bg-secondary text-white">
      <div className="mx-auto grid max-w-7xl gap-12 px-6 pt-16 pb-10 md:grid-cols-2 lg:grid-cols-[1.4fr_1fr_1fr_1fr]">
        <div className="grid content-start gap-5">
          <BrandLogo tone="light" />
          <p className="max-w-sm text-white/75">{site.tagline}</p>
          <address className="grid gap-3 not-italic">
            <a href={site.address.mapsUrl} className={linkClass} rel="noopener noreferrer" target="_blank">
              {formatAddress()}
              <span className="sr-only"> (opens a map in a new tab)</span>
            </a>
            <a href={`mailto:${site.email}`} className={`${linkClass} font-semibold`}>
              {site.email}
            </a>
            <a href={`tel:${site.phone.e164}`} className={`${linkClass} font-semibold`}>
              {site.phone.display}
            </a>
          </address>
        </div>
        {footerGroups.map((group) => (
          <nav key={group.heading} aria-labelledby={`footer-${slug(group.heading)}`}>
            <h2
              id={`footer-${slug(group.heading)}`}
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
      <div className="border-white/10 border-t">
        <div className="mx-auto flex max-w-7xl flex-col gap-4 px-6 py-6 text-sm text-white/70 md:flex-row md:items-center md:justify-between">
          <p>
            © {year} {site.name}. ALL RIGHTS RESERVED.
          </p>
          <ul className="flex flex-wrap gap-x-6 gap-y-2">
            <li>
              <PolicyDialogLink href="/terms-conditions" className={linkClass}>
                Terms of Service
              </PolicyDialogLink>
            </li>
            <li>
              <PolicyDialogLink href="/privacy-policy" className={linkClass}>
                Privacy Policy
              </PolicyDialogLink>
            </li>
            <li>
              <a href="/cookie-policy" className={linkClass}>
                Cookie Policy
              </a>
            </li>
          </ul>
        </div>
      </div>
      {/* Fixed to the viewport's corner; kept in the footer landmark for assistive technology. */}
      <ScrollToTop />
    </footer>
  );
}

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, "-");
}
