export function ServicesSection() {
  return (
    <section id="services" aria-labelledby="services-heading" className="mx-auto max-w-7xl px-6 py-20">
      <h2 id="services-heading" className="font-bold text-3xl">
        Services
      </h2>
    </section>
  );
}
