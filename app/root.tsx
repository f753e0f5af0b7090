/** The layout of every page (head, header, main, footer) and the root loader and error boundary. */
import fontUrl from "@fontsource-variable/plus-jakarta-sans/files/plus-jakarta-sans-latin-wght-normal.woff2";
import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  useMatches,
  useRouteError,
} from "@remix-run/react";
import { lazy, type ReactNode, Suspense } from "react";
import { ServerInlineScript } from "~/components/server-inline-script";
import { SiteFooter } from "~/components/site-footer";
import { SiteHeader } from "~/components/site-header";
import { footer } from "~/content/generated/footer.server";
import { navigationLabels } from "~/content/generated/navigation.server";
import { campaignLinksScript } from "~/enquiry/campaign-links.server";
import { keepDataWhenTokenLeaves } from "~/enquiry/notice-token-url";
import { env } from "~/env.server";
import { headScript } from "~/hydration/defer.server";
import { HydratedApart } from "~/hydration/hydrated-apart";
import { sendsBundle } from "~/hydration/without-bundle";
import { organizationJsonLdScript } from "~/json-ld.server";
import { useNonce } from "~/nonce";
import { type RootData, useRootData } from "~/root-data";
import stylesheet from "~/styles/app.css";
import { fieldMetricsScript } from "~/vitals/inline-reporter.server";

export const links: LinksFunction = () => [
  { rel: "preload", href: fontUrl, as: "font", type: "font/woff2", crossOrigin: "anonymous" },
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.ico", sizes: "32x32" },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "apple-touch-icon", href: "/apple-touch-icon.png" },
  { rel: "manifest", href: "/manifest.webmanifest" },
];

/** The layout renders only from its loader data: see the rule in ~/shared-documents/document-cache.server. */
export const handle = { sharedDocument: true };

export async function loader(_: LoaderFunctionArgs): Promise<RootData> {
  const { rights, terms, privacy, cookies, loading } = footer;
  return {
    year: new Date().getFullYear(),
    siteUrl: env.SITE_URL,
    words: { navigation: navigationLabels, footer: { rights, terms, privacy, cookies, loading } },
  };
}

export const shouldRevalidate = keepDataWhenTokenLeaves;

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const data = useRootData();
  // A page whose route says `hydrate: false` gets no bundle, only two small inline scripts
  // (~/hydration/without-bundle); it never renders in the browser, so this never changes there.
  const matches = useMatches();
  const bundle = sendsBundle(matches);
  const error = useRouteError();
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#7255F7" />
        {/* With the bundle: marks the document as scripted before first paint, so enhancement-only
            styles apply at once, and starts the page's JavaScript once the first paint is done.
            Without it the page stays as it is without JavaScript, and only measures itself. */}
        <ServerInlineScript render={bundle ? headScript : fieldMetricsScript?.bind(null, matches, error)} />
        <Meta />
        <Links />
        <ServerInlineScript type="application/ld+json" render={organizationJsonLdScript} />
      </head>
      <body className="flex min-h-dvh flex-col">
        <SiteHeader />
        <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
          {children}
        </main>
        <HydratedApart>
          <SiteFooter year={data?.year ?? new Date().getFullYear()} />
        </HydratedApart>
        {bundle ? <Scripts nonce={nonce} /> : <ServerInlineScript render={campaignLinksScript} />}
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

// Loaded only when something failed, so pages that render fine never download it.
const ErrorPage = lazy(() =>
  import("~/components/error-page").then((module) => ({ default: module.ErrorPage })),
);

export function ErrorBoundary() {
  const error = useRouteError();
  return (
    <Suspense>
      <ErrorPage status={isRouteErrorResponse(error) ? error.status : 500} />
    </Suspense>
  );
}
