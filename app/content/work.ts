/** The copy of the home page's work section: its heading and the featured case study. */
import petCareBanner from "~/images/work-pet-care.svg";

/** The reviews section's heading, for assistive technology (its blocks have visible headings). */
export const reviewsHeading = "Our work and the teams who trust us";

/** 'Dive Into Our Work': the featured case study. */
export const featuredWork = {
  heading: "Dive Into Our Work",
  /** PawPal's case study (content/case-studies/pawpal.md; a unit test checks it exists). */
  caseStudyPath: "/case-studies/pawpal",
  introduction: "Reviews are kind, results are better. Here is one product we are proud of.",
  project: {
    name: "PawPal",
    kind: "Pet-care app · iOS, Android and clinic dashboard",
    summary:
      "PawPal lets pet parents book vet visits, track vaccinations and chat with a groomer from one app, while clinics manage appointments from a web dashboard. We took it from a whiteboard sketch to both app stores in 14 weeks.",
    results: [
      { value: "40k", label: "pet parents in the first year" },
      { value: "4.8/5", label: "average store rating" },
      { value: "−35%", label: "missed clinic appointments" },
    ],
  },
  image: { src: petCareBanner, width: 1200, height: 520 },
  imageAlt:
    "The PawPal pet-care app: a phone showing a happy dog's profile with the next vet appointment and vaccination reminders, beside a cat, paw prints and a calendar.",
} as const;
