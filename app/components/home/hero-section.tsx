/** The home page's hero: the headline with its typed word and its pause button, around the server's parts. */
import { useState } from "react";
import { HeroDetails, HeroIllustration, HeroTagline } from "~/components/home/hero-parts.server";
import { useHomeContent } from "~/components/home/home-content";
import { TypedWord } from "~/components/home/typed-word";
import { ServerRendered } from "~/components/server-rendered";

export function HeroSection() {
  const { hero } = useHomeContent();
  const [paused, setPaused] = useState(false);
  return (
    <section aria-labelledby="hero-heading" className="hero-backdrop relative overflow-hidden">
      <div className="mx-auto grid max-w-7xl items-center gap-12 px-6 pt-14 pb-20 lg:grid-cols-[1.15fr_1fr] lg:pt-20 lg:pb-28">
        <div className="grid gap-7">
          <ServerRendered id="hero-tagline" render={HeroTagline} />
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
          <ServerRendered id="hero-details" render={HeroDetails} />
        </div>
        <ServerRendered id="hero-illustration" render={HeroIllustration} />
      </div>
    </section>
  );
}
