/**
 * The branded error page: the not-found illustration alone, or a title and advice for every other status.
 *
 * Why: docs/decisions/007-branded-error-pages.md.
 */
import { fillWords, pageWords } from "~/content/page-words";
import notFoundArt from "~/images/not-found.svg";

/** The branded page for every thrown error: 404 is the illustration alone, as originally specified. */
export function ErrorPage({ status }: { status: number }) {
  const words = pageWords.errors;
  if (status === 404) {
    return (
      <section className="grid min-h-[calc(100dvh-4.5rem)] place-items-center px-6 py-10">
        {/* The heading is the illustration itself: no visible text, one name for assistive technology. */}
        <h1 className="w-full max-w-xl">
          <img
            src={notFoundArt}
            width={640}
            height={480}
            alt={words.notFound.alt}
            className="h-auto w-full max-w-xl"
            // The page's largest paint: fetch it first. (React 18 knows the attribute only in lowercase.)
            {...{ fetchpriority: "high" }}
          />
        </h1>
      </section>
    );
  }
  const message = words.statuses.find((known) => known.status === status) ?? words.fallback;
  return (
    <section className="mx-auto grid min-h-[calc(100dvh-4.5rem)] max-w-2xl content-center gap-4 px-6 py-16 text-center">
      <p className="font-semibold text-primary-dark">{fillWords(words.status, { status })}</p>
      <h1 className="font-bold text-3xl tracking-tight sm:text-4xl">{message.title}</h1>
      <p className="text-lg text-muted">{message.body}</p>
      <p>
        <a
          href="/"
          className="mt-4 inline-flex rounded-full bg-primary px-6 py-3 font-semibold text-white hover:bg-primary-dark"
        >
          {words.home}
        </a>
      </p>
    </section>
  );
}
