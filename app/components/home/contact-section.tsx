/** The home page's contact section: the frame around the enquiry form. */
import type { ReactNode } from "react";
import { ContactIntro } from "~/components/home/contact-intro.server";
import { ServerRendered } from "~/components/server-rendered";

/** The contact section: its heading and introduction, then the enquiry form passed as children. */
export function ContactSection({ children }: { children?: ReactNode }) {
  return (
    <section id="contact" aria-labelledby="contact-heading" className="py-20 lg:py-28">
      <div data-reveal="" className="mx-auto grid max-w-7xl gap-10 px-6">
        <ServerRendered id="contact-intro" render={ContactIntro} />
        {children}
      </div>
    </section>
  );
}
