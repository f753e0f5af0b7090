/** The "Chat on WhatsApp" link: WhatsApp's click-to-chat, with its icon drawn inline. */
import type { ContactEntry } from "~/content/entries";
import { site } from "~/content/site";
import { chatHref } from "~/content/whatsapp";

/**
 * A plain link to `https://wa.me/…` with the greeting; nothing when the contact details (the
 * site's, unless /admin's preview passes an entry's) have no WhatsApp number. The icon is inline SVG and decorative, so nothing is fetched from another origin
 * until the visitor taps it. `data-whatsapp` lets the page's script (when it has one) add the
 * campaign to the message and count the tap (~/vitals/whatsapp-taps.client).
 */
export function WhatsAppLink({ className, contact = site }: { className: string; contact?: ContactEntry }) {
  const whatsapp = contact.whatsapp;
  const href = whatsapp ? chatHref(whatsapp.number, whatsapp.greeting) : null;
  if (!whatsapp || href === null) return null;
  return (
    <a href={href} data-whatsapp="" className={className} rel="noopener noreferrer" target="_blank">
      <svg
        aria-hidden="true"
        focusable="false"
        viewBox="0 0 24 24"
        className="size-5 shrink-0"
        fill="currentColor"
      >
        <path d="M12 2a10 10 0 0 0-8.6 15.1L2 22l5-1.3A10 10 0 1 0 12 2Zm0 18.2a8.2 8.2 0 0 1-4.2-1.2l-.3-.2-3 .8.8-2.9-.2-.3A8.2 8.2 0 1 1 12 20.2Zm4.5-6.1c-.2-.1-1.5-.7-1.7-.8s-.4-.1-.6.1l-.8 1c-.1.2-.3.2-.5.1a6.7 6.7 0 0 1-3.3-2.9c-.2-.4.2-.4.7-1.3.1-.2 0-.3 0-.4l-.8-1.8c-.2-.5-.4-.4-.6-.4h-.5a1 1 0 0 0-.7.3 3 3 0 0 0-.9 2.2 5.2 5.2 0 0 0 1.1 2.7 11.9 11.9 0 0 0 4.6 4c1.7.7 2.3.8 3.2.7.5-.1 1.5-.6 1.7-1.2.2-.6.2-1.1.2-1.2-.1-.2-.3-.2-.5-.3Z" />
      </svg>
      {whatsapp.label}
      <span className="sr-only"> (opens in a new tab)</span>
    </a>
  );
}
