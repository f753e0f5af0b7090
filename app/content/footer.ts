/** The footer's link groups: each heading and the things a visitor can ask us for under it. */
export interface FooterGroup {
  heading: string;
  /** Every entry links to the enquiry form: each is something a visitor can ask us for. */
  items: readonly string[];
}

export const footerGroups: readonly FooterGroup[] = [
  {
    heading: "Services",
    items: [
      "Mobile App Development",
      "Front-end Development",
      "Web Development",
      "E-commerce Development",
      "UI/UX Design",
    ],
  },
  {
    heading: "Hire Talent",
    items: ["Hire Developers", "Hire QA Engineers"],
  },
  {
    heading: "Solutions",
    items: ["Pet Care Platform", "School Management Suite", "AI Chat Assistant"],
  },
];
