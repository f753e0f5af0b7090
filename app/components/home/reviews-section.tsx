export function ReviewsSection() {
  return (
    <section id="testimonial" aria-labelledby="testimonial-heading" className="mx-auto max-w-7xl px-6 py-20">
      <h2 id="testimonial-heading" className="font-bold text-3xl">
        Reviews
      </h2>
    </section>
  );
}
