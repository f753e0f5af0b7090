/** The home page's hero: the headline with its typed word, the introduction and the calls to action. */
import { useState } from "react";
import { useHomeContent } from "~/components/home/home-content";
import { TypedWord } from "~/components/home/typed-word";
import heroIllustration from "~/images/hero-illustration.svg";

export function HeroSection() {
  const { hero } = useHomeContent();
  const [paused, setPaused] = useState(false);
  return (
    <section aria-labelledby="hero-heading" className="hero-backdrop relative overflow-hidden">
      <div className="mx-auto grid max-w-7xl items-center gap-12 px-6 pt-14 pb-20 lg:grid-cols-[1.15fr_1fr] lg:pt-20 lg:pb-28">
        <div className="grid gap-7">
          <p className="w-fit rounded-full bg-white px-4 py-1.5 font-semibold text-primary-dark text-xs shadow-sm ring-1 ring-primary/15 sm:text-sm">
            {hero.tagline}
          </p>
          <h1
            id="hero-heading"
            className="font-extrabold text-4xl leading-[1.12] tracking-tight sm:text-5xl lg:text-6xl"
          >
            {hero.headline}
            {/* At 420 px or less the rotating word gets a line of its own, as originally specified. */}
            <br className="hidden [@media(max-width:420px)]:inline" />{" "}
            <TypedWord words={hero.words} paused={paused} />
          </h1>
          <button
            type="button"
            onClick={() => setPaused((value) => !value)}
            className="js-only -mt-4 w-fit rounded-full font-semibold text-primary-dark text-sm underline-offset-4 hover:underline"
          >
            {paused ? hero.play : hero.pause}
          </button>
          <p className="max-w-xl text-lg text-muted">{hero.lead}</p>
          <p className="flex flex-wrap gap-4">
            <a
              href="#contact"
              className="inline-flex items-center gap-2 rounded-full bg-primary px-7 py-3 font-semibold text-white shadow-lg shadow-primary/25 transition-colors hover:bg-primary-dark"
            >
              {hero.primaryAction}
              <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4" fill="currentColor">
                <path d="M11.3 4.3a1 1 0 0 1 1.4 0l5 5a1 1 0 0 1 0 1.4l-5 5a1 1 0 0 1-1.4-1.4l3.3-3.3H3a1 1 0 1 1 0-2h11.6l-3.3-3.3a1 1 0 0 1 0-1.4z" />
              </svg>
            </a>
            <a
              href="#services"
              className="inline-flex items-center rounded-full border-2 border-secondary px-7 py-3 font-semibold text-secondary transition-colors hover:bg-secondary hover:text-white"
            >
              {hero.secondaryAction}
              <span className="sr-only"> {hero.secondaryActionDetail}</span>
            </a>
          </p>
          <dl className="grid max-w-md grid-cols-3 gap-4 border-primary/15 border-t pt-6">
            {hero.figures.map((item) => (
              <div key={item.label} className="flex flex-col-reverse">
                <dt className="text-muted text-sm">{item.label}</dt>
                <dd className="font-extrabold text-2xl text-ink">{item.value}</dd>
              </div>
            ))}
          </dl>
        </div>
        <img
          src={heroIllustration}
          alt={hero.illustrationAlt}
          width={560}
          height={480}
          decoding="async"
          className="mx-auto h-auto w-full max-w-md lg:max-w-none"
        />
      </div>
    </section>
  );
}
