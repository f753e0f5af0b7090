/** One service's panel, shared by the tabs, the accordion and the disclosures. */
import { ContentImage } from "~/components/content-image";
import { useHomeContent } from "~/components/home/home-content";
import type { Service } from "~/content/services";

/** Illustration, description, highlights and the 'Explore' link of one service. */
export function ServiceBody({ service, showImage }: { service: Service; showImage: boolean }) {
  const { servicesIntro } = useHomeContent();
  return (
    <div className="grid items-start gap-6 sm:grid-cols-[minmax(0,1fr)_minmax(0,1.1fr)] sm:gap-8">
      <div className="aspect-[4/3] overflow-hidden rounded-2xl bg-primary-soft">
        {showImage ? (
          <ContentImage
            image={{
              src: service.image,
              alt: service.imageAlt,
              width: 480,
              height: 360,
              responsive: service.imageSet,
            }}
            sizes="(min-width: 1280px) 560px, (min-width: 640px) 45vw, calc(100vw - 48px)"
            className="h-full w-full object-cover"
          />
        ) : null}
      </div>
      <div className="grid gap-5">
        <p className="text-muted">{service.description}</p>
        <ul className="grid gap-2.5">
          {service.includes.map((item) => (
            <li key={item} className="flex items-start gap-2.5 font-medium text-ink text-sm">
              <svg aria-hidden="true" viewBox="0 0 20 20" className="mt-0.5 size-5 shrink-0 text-primary">
                <circle cx="10" cy="10" r="10" fill="currentColor" opacity=".14" />
                <path
                  d="M6 10.2l2.6 2.6L14 7.4"
                  fill="none"
                  stroke="currentColor"
                  strokeWidth="2"
                  strokeLinecap="round"
                  strokeLinejoin="round"
                />
              </svg>
              {item}
            </li>
          ))}
        </ul>
        <p>
          <a
            href="#contact"
            className="inline-flex items-center gap-2 rounded-full bg-primary px-6 py-2.5 font-semibold text-white shadow-md shadow-primary/20 transition-colors hover:bg-primary-dark"
          >
            {servicesIntro.explore}
            <span className="sr-only"> {service.label}</span>
            <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4" fill="currentColor">
              <path d="M11.3 4.3a1 1 0 0 1 1.4 0l5 5a1 1 0 0 1 0 1.4l-5 5a1 1 0 0 1-1.4-1.4l3.3-3.3H3a1 1 0 1 1 0-2h11.6l-3.3-3.3a1 1 0 0 1 0-1.4z" />
            </svg>
          </a>
        </p>
      </div>
    </div>
  );
}
