export function InsightsSection() {
  return (
    <section id="insights" aria-labelledby="insights-heading" className="mx-auto max-w-7xl px-6 py-20">
      <h2 id="insights-heading" className="font-bold text-3xl">
        Insights
      </h2>
    </section>
  );
}
