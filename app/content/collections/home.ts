/** The home page's words: its title and description, the hero, and each section's introduction. */
import { z } from "zod";
import { defineCollection } from "./collection";
import { slugField, text } from "./fields";
import { quoted } from "./quoted";

/** A home section's opening: the small line above its heading, the heading and the paragraph below. */
const intro = <Heading extends z.ZodType<string>>(heading: Heading) =>
  ({
    eyebrow: text(40).meta({ title: "Eyebrow", description: "The small line above the heading" }),
    heading,
    lead: text(300).meta({ title: "Lead", description: "The paragraph below the heading", widget: "text" }),
  }) as const;

const heading = (max = 60) => text(max).meta({ title: "Heading" });

/** Two labels of a button that stops and starts an animation. */
const playControls = (what: string) => ({
  pause: text(40).meta({ title: "Pause button", description: `The button that stops ${what}` }),
  play: text(40).meta({ title: "Play button", description: `The same button once ${what} is stopped` }),
});

export const homeCollection = defineCollection({
  name: "home",
  label: "Home page",
  kind: "file",
  format: "yaml",
  schema: z.object({
    title: text(70).meta({ title: "Page title", description: "The browser tab's and search results' title" }),
    description: text(300).meta({
      title: "Description",
      description: "For search results and link previews, and the agency's description in structured data",
      widget: "text",
    }),
    hero: z
      .object({
        tagline: text(60).meta({ title: "Tagline", description: "The small line above the headline" }),
        headline: text(90).meta({
          title: "Headline",
          ...quoted("Pioneering Purposeful Digital Products to Elevate Your"),
        }),
        words: z
          .array(text(24))
          .min(1, "is empty")
          .max(6)
          .meta({ title: "Typed words", widget: "list", ...quoted.list(["Business", "Startup", "Brand"]) }),
        lead: text(240).meta({
          title: "Lead",
          description: "The paragraph below the headline",
          widget: "text",
        }),
        primaryAction: text(24).meta({ title: "First call to action (to the form)", ...quoted("Start now") }),
        secondaryAction: text(24).meta({
          title: "Second call to action (to the services)",
          ...quoted("Learn more"),
        }),
        secondaryActionDetail: text(60).meta({
          title: "Second call to action, for screen readers",
          description: "Words a screen reader reads after its label, so the link says where it leads",
        }),
        figures: z
          .array(
            z.object({
              value: text(12).meta({ title: "Figure" }),
              label: text(40).meta({ title: "What it counts" }),
            }),
          )
          .min(1)
          .max(4)
          .meta({ title: "Figures", widget: "list" }),
        illustrationAlt: text(250).meta({
          title: "Illustration's alt text",
          description: "What the illustration shows, for people who cannot see it",
        }),
        ...playControls("the typed word"),
      })
      .meta({ title: "Hero" }),
    services: z
      .object({
        ...intro(heading()),
        explore: text(24).meta({ title: "Each service's button (to the form)", ...quoted("Explore") }),
      })
      .meta({ title: "Services" }),
    delivery: z
      .object(intro(heading().meta({ title: "Heading", ...quoted("How We Deliver Value") })))
      .meta({ title: "How We Deliver Value" }),
    reviews: z
      .object({
        heading: text(80).meta({
          title: "Heading for screen readers",
          description: "Read by screen readers only: the section holding the work banner and the partners",
        }),
      })
      .meta({ title: "Reviews" }),
    work: z
      .object({
        heading: heading().meta({ title: "Heading", ...quoted("Dive Into Our Work") }),
        lead: text(300).meta({
          title: "Lead",
          description: "The paragraph below the heading",
          widget: "text",
        }),
        caseStudy: slugField.meta({
          title: "Case study",
          description:
            "The file name of the published case study the banner shows, as in its address /case-studies/<name>: its cover, client, sector, summary and results",
        }),
        link: text(60).meta({
          title: "Link to the case study",
          description: "{client} stands for the case study's client",
        }),
      })
      .meta({ title: "Dive Into Our Work" }),
    partners: z
      .object({
        ...intro(heading().meta({ title: "Heading", ...quoted("Trusted By") })),
        carouselLabel: text(40).meta({
          title: "Carousel's name",
          description: "What a screen reader calls the row of logos",
        }),
        ...playControls("the carousel"),
      })
      .meta({ title: "Trusted By" }),
    values: z
      .object({
        ...intro(heading().meta({ title: "Heading", ...quoted("Our Core Values") })),
        link: text(40).meta({ title: "Link to the insights" }),
      })
      .meta({ title: "Our Core Values" }),
    contact: z
      .object({
        ...intro(heading()),
        emailLead: text(60).meta({
          title: "Before the e-mail address",
          description: "Closes the lead: the e-mail address (Contact details) follows",
        }),
        phoneLead: text(30).meta({
          title: "Before the phone number",
          description: "Between the e-mail address and the phone number",
        }),
      })
      .meta({ title: "Contact" }),
  }),
});
