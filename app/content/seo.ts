/** What search engines and link previews are told about the site beyond the page copy. */
export const seo = {
  /** Indexable pages for the sitemap: the home page and the three policies. */
  sitemap: [
    { path: "/", changefreq: "monthly", priority: "1.0" },
    { path: "/terms-conditions", changefreq: "yearly", priority: "0.3" },
    { path: "/privacy-policy", changefreq: "yearly", priority: "0.3" },
    { path: "/cookie-policy", changefreq: "yearly", priority: "0.3" },
  ],
  themeColor: "#7255F7",
  ogImage: { path: "/og-image.png", width: 1200, height: 630 },
} as const;
