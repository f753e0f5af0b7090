/** 'Our Core Values', phrased for software delivery (docs/decisions/004-content-departures.md). */
export type ValueIcon = "simple" | "reliable" | "care";

export interface CoreValue {
  id: string;
  title: string;
  summary: string;
  description: string;
  icon: ValueIcon;
}

export const valuesIntro = {
  eyebrow: "Insights",
  heading: "Our Core Values",
  introduction:
    "Three promises shape every estimate we write, every line of code we ship and every call we join.",
} as const;

export const coreValues: readonly CoreValue[] = [
  {
    id: "simple",
    title: "Simple",
    summary: "Clarity over cleverness.",
    description:
      "Plain-language proposals, transparent estimates and a weekly demo you can click through. We choose proven technology and keep architectures small enough to explain on one page, so your product stays easy to change long after launch.",
    icon: "simple",
  },
  {
    id: "reliable",
    title: "Reliable",
    summary: "We ship what we promise, when we promise it.",
    description:
      "Automated tests, code review on every change, monitored releases and documented hand-overs. When something is at risk we say so early, with options — no surprises on launch day, and no lock-in afterwards.",
    icon: "reliable",
  },
  {
    id: "care",
    title: "Care",
    summary: "Your users are our users.",
    description:
      "We sweat the details people feel: accessible interfaces, fast pages on budget phones and privacy by default. After launch we stay close with support plans, because a product is only done when its users are happy.",
    icon: "care",
  },
];
