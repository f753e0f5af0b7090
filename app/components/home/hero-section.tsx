export function HeroSection() {
  return (
    <section aria-labelledby="hero-heading" className="relative overflow-hidden bg-primary-soft">
      <div className="mx-auto grid max-w-7xl gap-10 px-6 pt-16 pb-20 lg:pt-24 lg:pb-28">
        <h1
          id="hero-heading"
          className="max-w-4xl font-extrabold text-4xl leading-tight tracking-tight sm:text-5xl lg:text-6xl"
        >
          Pioneering Purposeful Digital Products to Elevate Your{" "}
          <span className="text-primary">Business</span>
        </h1>
        <p className="max-w-2xl text-lg text-muted">
          We design, build and grow software for ambitious businesses and startups — from the first sketch to
          the thousandth release.
        </p>
        <p className="flex flex-wrap gap-4">
          <a
            href="#contact"
            className="inline-flex items-center rounded-full bg-primary px-7 py-3 font-semibold text-white shadow-sm hover:bg-primary-dark"
          >
            Start now
          </a>
          <a
            href="#services"
            className="inline-flex items-center rounded-full border-2 border-secondary px-7 py-3 font-semibold text-secondary hover:bg-secondary hover:text-white"
          >
            Learn more<span className="sr-only"> about our services</span>
          </a>
        </p>
      </div>
    </section>
  );
}
