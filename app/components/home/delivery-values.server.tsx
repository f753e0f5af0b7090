/** The home page's 'How We Deliver Value' section, rendered on the server only. */
import { LineIcon } from "~/components/home/line-icon";
import { SectionIntro } from "~/components/home/section-intro";
import { type DeliveryCard, deliveryCards } from "~/content/delivery";
import { home } from "~/content/generated/home.server";

/** 'How We Deliver Value': the engagement models as cards (content/delivery.yml's by default; /admin's preview passes an entry's). */
export function DeliveryValues({ cards = deliveryCards }: { cards?: readonly DeliveryCard[] } = {}) {
  return (
    <section aria-labelledby="delivery-heading" className="bg-primary-soft/60 py-20 lg:py-28">
      <div data-reveal="" className="mx-auto max-w-7xl px-6">
        <SectionIntro
          id="delivery-heading"
          eyebrow={home.delivery.eyebrow}
          heading={home.delivery.heading}
          lead={home.delivery.lead}
          level={2}
        />
        <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {cards.map((card) => (
            <li
              key={card.id}
              className="group rounded-3xl bg-white p-7 shadow-lg shadow-primary/5 ring-1 ring-primary/10 transition-shadow hover:shadow-primary/15 hover:shadow-xl"
            >
              <span className="grid size-12 place-items-center rounded-2xl bg-primary-soft text-primary transition-colors group-hover:bg-primary group-hover:text-white">
                <LineIcon name={card.icon} className="size-6" />
              </span>
              <h3 className="mt-5 font-bold text-lg">{card.title}</h3>
              <p className="mt-2 text-muted">{card.description}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
