/** The web app manifest: the site's name, colours and icons for a home screen. */
import { home } from "~/content/generated/home.server";
import { seo } from "~/content/seo";
import { site } from "~/content/site";
import { CACHE_CONTROL } from "~/http/cache-control";
import { secureResponse } from "~/http/security.server";

export function loader() {
  const manifest = {
    name: site.name,
    short_name: site.shortName,
    description: home.description,
    lang: "en",
    start_url: "/",
    scope: "/",
    display: "browser",
    background_color: "#ffffff",
    theme_color: seo.themeColor,
    icons: [
      { src: "/favicon.svg", type: "image/svg+xml", sizes: "any" },
      { src: "/icon-192.png", type: "image/png", sizes: "192x192" },
      { src: "/icon-512.png", type: "image/png", sizes: "512x512" },
      { src: "/icon-512.png", type: "image/png", sizes: "512x512", purpose: "maskable" },
    ],
  };
  return secureResponse(JSON.stringify(manifest), {
    headers: { "Content-Type": "application/manifest+json", "Cache-Control": CACHE_CONTROL.hour },
  });
}
