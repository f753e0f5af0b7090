import type { ReactNode } from "react";

export function ContactSection({ children }: { children?: ReactNode }) {
  return (
    <section id="contact" aria-labelledby="contact-heading" className="mx-auto max-w-7xl px-6 py-20">
      <h2 id="contact-heading" className="font-bold text-3xl">
        Contact
      </h2>
      {children}
    </section>
  );
}
