/** The services section's copy and the services the agency offers. */
import ecommerceArt from "~/images/service-ecommerce.svg";
import mobileArt from "~/images/service-mobile.svg";
import saasArt from "~/images/service-saas.svg";
import webAppArt from "~/images/service-web-app.svg";
import websiteArt from "~/images/service-website.svg";

/** One service the agency offers (the original specification's fields: label, image, description). */
export interface Service {
  id: string;
  label: string;
  /** URL of the service's illustration. */
  image: string;
  imageAlt: string;
  description: string;
  /** Three concrete things the client gets. */
  includes: readonly [string, string, string];
}

export const servicesIntro = {
  eyebrow: "What we do",
  heading: "Our Services",
  introduction:
    "Five disciplines, one team. Whichever you start with, the same designers and engineers stay with your product from discovery to launch and beyond.",
  exploreLabel: "Explore",
} as const;

export const services: readonly Service[] = [
  {
    id: "website-development",
    label: "Website Development",
    image: websiteArt,
    imageAlt: "A fast marketing website with a hero banner, feature cards and a performance score of 100.",
    description:
      "Marketing sites and content platforms that load in a blink, rank well and are easy for your team to update. We care about the details search engines and visitors notice: clean markup, accessible design and pages that stay quick on a patchy mobile connection.",
    includes: [
      "Design systems and CMS set-up",
      "Core Web Vitals in the green",
      "Accessibility to WCAG 2.2 AA",
    ],
  },
  {
    id: "mobile-app-development",
    label: "Mobile App Development",
    image: mobileArt,
    imageAlt: "Two phones showing a mobile app's home screen and a push notification.",
    description:
      "Native-feeling iOS and Android apps built with React Native or Flutter from one codebase. We handle the whole journey — prototypes you can hold, offline-ready features, analytics and the App Store and Play Store releases.",
    includes: [
      "One codebase for iOS and Android",
      "Offline sync and push notifications",
      "Store submission and updates",
    ],
  },
  {
    id: "saas-development",
    label: "SaaS Development",
    image: saasArt,
    imageAlt: "A SaaS dashboard with subscription charts, user seats and a cloud connected to it.",
    description:
      "Subscription products engineered to grow with your customers: multi-tenant architecture, billing, roles and permissions, and the observability you need to sleep at night. We help you reach a sellable first version fast, then scale it safely.",
    includes: ["Multi-tenant architecture", "Billing, plans and usage metering", "Audit logs, SSO and roles"],
  },
  {
    id: "ecommerce-development",
    label: "eCommerce Development",
    image: ecommerceArt,
    imageAlt: "An online store product page with a shopping bag, a price tag and a secure checkout badge.",
    description:
      "Storefronts that convert, on Shopify, headless commerce or a custom stack. We design product pages and checkouts around your buyers, connect payments, inventory and shipping, and make sure the store holds up on sale day.",
    includes: [
      "Headless or Shopify storefronts",
      "UPI, card and wallet payments",
      "Inventory and logistics integrations",
    ],
  },
  {
    id: "web-application-development",
    label: "Web Application Development",
    image: webAppArt,
    imageAlt: "A web application with a kanban board, connected services and a code window.",
    description:
      "Internal tools, portals and customer-facing web apps that replace spreadsheets and manual steps. We model your workflows, integrate the systems you already use and deliver software your team actually enjoys working in.",
    includes: [
      "Workflow and data modelling",
      "APIs and third-party integrations",
      "Automated tests and CI/CD",
    ],
  },
];
