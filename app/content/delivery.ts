/** The six ways of working in 'How We Deliver Value'. */
export type DeliveryIcon = "squad" | "supervised" | "talent" | "marketing" | "platforms" | "studio";

export interface DeliveryCard {
  id: string;
  title: string;
  description: string;
  icon: DeliveryIcon;
}

export const deliveryIntro = {
  eyebrow: "Engagement models",
  heading: "How We Deliver Value",
  introduction:
    "Every product and every team is different, so we offer several ways to work together. Pick one, or combine them as your product grows.",
} as const;

export const deliveryCards: readonly DeliveryCard[] = [
  {
    id: "exclusive-development-squad",
    title: "Exclusive Development Squad",
    description:
      "A cross-functional team — product manager, designers, engineers and QA — working only on your product, with your rituals and your roadmap.",
    icon: "squad",
  },
  {
    id: "supervised-endeavors",
    title: "Supervised Endeavors",
    description:
      "Fixed-scope projects led by our delivery managers: clear milestones, weekly demos and one accountable point of contact from kick-off to hand-over.",
    icon: "supervised",
  },
  {
    id: "technology-talent-acquisition",
    title: "Technology Talent Acquisition",
    description:
      "Pre-vetted developers and QA engineers who join your team within two weeks, on monthly contracts you can scale up or down.",
    icon: "talent",
  },
  {
    id: "marketing-for-scalability",
    title: "Marketing for Scalability",
    description:
      "Launch plans, SEO, analytics and conversion experiments that turn a working product into a growing one — measured against numbers you care about.",
    icon: "marketing",
  },
  {
    id: "product-and-platforms",
    title: "Product & Platforms",
    description:
      "Ready-made foundations for pet care, schools and conversational assistants that we tailor to your brand, so you launch in weeks rather than months.",
    icon: "platforms",
  },
  {
    id: "startup-venture-studio",
    title: "Startup Venture Studio",
    description:
      "For founders with an idea and a deadline: we validate, design and build your MVP with you, and can share the risk through equity partnerships.",
    icon: "studio",
  },
];
