/** The site's footer: its server-rendered columns, the policy links and the back-to-top link. */
import { site } from "~/content/site";
import { useRootData } from "~/root-data";
import { footerLinkClass as linkClass } from "./footer-styles";
import { PolicyDialogLink } from "./policy-dialog-link";
import { ScrollToTop } from "./scroll-to-top";
import { ServerRendered } from "./server-rendered";
import { FooterColumns } from "./site-footer-columns.server";

export function SiteFooter({ year }: { year: number }) {
  const words = useRootData()?.words.footer;
  return (
    <footer className="bg-secondary text-white">
      <ServerRendered id="footer-columns" render={FooterColumns} />
      <div className="border-white/10 border-t">
        <div className="mx-auto flex max-w-7xl flex-col gap-4 px-6 py-6 text-sm text-white/70 md:flex-row md:items-center md:justify-between">
          <p>
            © {year} {site.name}.{words ? ` ${words.rights}.` : null}
          </p>
          {words ? (
            <ul className="flex flex-wrap gap-x-6 gap-y-2">
              <li>
                <PolicyDialogLink href="/terms-conditions" className={linkClass}>
                  {words.terms}
                </PolicyDialogLink>
              </li>
              <li>
                <PolicyDialogLink href="/privacy-policy" className={linkClass}>
                  {words.privacy}
                </PolicyDialogLink>
              </li>
              <li>
                <a href="/cookie-policy" className={linkClass}>
                  {words.cookies}
                </a>
              </li>
            </ul>
          ) : null}
        </div>
      </div>
      {/* Fixed to the viewport's corner; kept in the footer landmark for assistive technology. */}
      <ScrollToTop />
    </footer>
  );
}
