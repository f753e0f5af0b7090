/** What search engines and link previews are told about the site beyond the page copy. */
export const seo = {
  /** The five services the agency offers, as structured data names them (JSON-LD `hasOfferCatalog`). */
  services: [
    {
      name: "Website Development",
      description: "Fast, accessible marketing and content websites.",
    },
    {
      name: "Mobile App Development",
      description: "Native and cross-platform apps for Android and iOS.",
    },
    {
      name: "SaaS Development",
      description: "Multi-tenant software products, from first release to scale.",
    },
    {
      name: "eCommerce Development",
      description: "Online stores with catalogues, payments and fulfilment built in.",
    },
    {
      name: "Web Application Development",
      description: "Custom web applications and internal tools for growing teams.",
    },
  ],
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
