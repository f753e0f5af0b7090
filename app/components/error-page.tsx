/**
 * The branded error page: the not-found illustration alone, or a title and advice for every other status.
 *
 * Why: docs/decisions/007-branded-error-pages.md.
 */
import notFoundArt from "~/images/not-found.svg";

const messages: Record<number, { title: string; body: string }> = {
  400: { title: "That request didn't look right", body: "Please go back and try again." },
  405: { title: "That action isn't available here", body: "Please go back and try again." },
  410: {
    title: "This page has been taken down",
    body: "It is no longer published. Our case studies and insights are a click away from the home page.",
  },
  413: { title: "That was too much to send", body: "Please shorten your message and try again." },
  429: { title: "Too many requests", body: "Please wait a few minutes and try again." },
};

const fallback = {
  title: "Something went wrong on our side",
  body: "We've been told about it. Please try again in a moment, or write to us directly.",
};

/** The branded page for every thrown error: 404 is the illustration alone, as originally specified. */
export function ErrorPage({ status }: { status: number }) {
  if (status === 404) {
    return (
      <section className="grid min-h-[calc(100dvh-4.5rem)] place-items-center px-6 py-10">
        {/* The heading is the illustration itself: no visible text, one name for assistive technology. */}
        <h1 className="w-full max-w-xl">
          <img
            src={notFoundArt}
            width={640}
            height={480}
            alt="Page not found: a lost paper plane circling an empty browser window marked 404."
            className="h-auto w-full max-w-xl"
            // The page's largest paint: fetch it first. (React 18 knows the attribute only in lowercase.)
            {...{ fetchpriority: "high" }}
          />
        </h1>
      </section>
    );
  }
  const message = messages[status] ?? fallback;
  return (
    <section className="mx-auto grid min-h-[calc(100dvh-4.5rem)] max-w-2xl content-center gap-4 px-6 py-16 text-center">
      <p className="font-semibold text-primary-dark">{`Error ${status}`}</p>
      <h1 className="font-bold text-3xl tracking-tight sm:text-4xl">{message.title}</h1>
      <p className="text-lg text-muted">{message.body}</p>
      <p>
        <a
          href="/"
          className="mt-4 inline-flex rounded-full bg-primary px-6 py-3 font-semibold text-white hover:bg-primary-dark"
        >
          Back to the home page
        </a>
      </p>
    </section>
  );
}
