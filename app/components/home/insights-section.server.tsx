/** The home page's 'Our Core Values' section (the `#insights` anchor), rendered on the server only. */
import { LineIcon } from "~/components/home/line-icon";
import { SectionIntro } from "~/components/home/section-intro";
import { home } from "~/content/generated/home.server";
import { type CoreValue, coreValues } from "~/content/values";

/** The section with `values` (content/values.yml's by default; /admin's preview passes an entry's). */
export function InsightsSection({ values = coreValues }: { values?: readonly CoreValue[] } = {}) {
  return (
    <section id="insights" aria-labelledby="insights-heading" className="bg-ink py-20 text-white lg:py-28">
      <div data-reveal="" className="mx-auto grid max-w-7xl gap-12 px-6">
        <SectionIntro
          id="insights-heading"
          eyebrow={home.values.eyebrow}
          heading={home.values.heading}
          lead={home.values.lead}
          tone="dark"
        />
        <ul className="grid gap-6 md:grid-cols-3">
          {values.map((value, index) => (
            <li
              key={value.id}
              className="relative overflow-hidden rounded-3xl bg-white/[0.06] p-8 ring-1 ring-white/10"
            >
              {/* A decorative ordinal, drawn by CSS so it is not text to read or contrast-check. */}
              <span
                aria-hidden="true"
                data-ordinal={String(index + 1).padStart(2, "0")}
                className="absolute top-6 right-7 font-extrabold text-5xl text-white/10 after:content-[attr(data-ordinal)]"
              />
              <span className="grid size-12 place-items-center rounded-2xl bg-primary text-white">
                <LineIcon name={value.icon} className="size-6" />
              </span>
              <h3 className="mt-6 font-bold text-2xl">{value.title}</h3>
              <p className="mt-1 font-semibold text-[#c9bfff]">{value.summary}</p>
              <p className="mt-4 text-white/80">{value.description}</p>
            </li>
          ))}
        </ul>
        <p>
          <a
            href="/insights"
            className="font-semibold text-[#c9bfff] underline underline-offset-4 hover:text-white"
          >
            {home.values.link}
          </a>
        </p>
      </div>
    </section>
  );
}
