/** The not-found page: every path no other route claims, with a real 404 status. */
import type { MetaFunction } from "@remix-run/node";
import { ErrorPage } from "~/components/error-page";
import { errorMeta } from "~/utils/error-meta";

/** Every path no other route claims: a real 404 status, rendered by the root error boundary. */
export function loader() {
  throw new Response("Not Found", { status: 404 });
}

/** Nothing on it needs a script: it sends no bundle (~/hydration/without-bundle). */
export const handle = { hydrate: false };

export const meta: MetaFunction = errorMeta;

export default function NotFoundPage() {
  return <ErrorPage status={404} />;
}

export function ErrorBoundary() {
  return <ErrorPage status={404} />;
}
