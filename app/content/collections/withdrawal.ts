/**
 * The withdrawal page's words (/privacy/withdraw), one set per language, and the success
 * notice's line that leads there.
 */
import { z } from "zod";
import { WITHDRAWAL_HINT } from "../withdrawal-hint";
import { defineCollection } from "./collection";
import { text } from "./fields";

/** Text that must keep each of `parts`, which the page fills in or makes a link. */
const keeping = (max: number, parts: readonly string[], title: string, description: string) =>
  text(max)
    .refine((value) => parts.every((part) => value.includes(part)), `must keep ${parts.join(" and ")}`)
    .meta({ title, description, widget: max > 120 ? "text" : "string" });

const contactLink =
  "{contact} stands for the privacy contact's e-mail address; [words](contact) is a link that writes to it";

const language = z.object({
  language: z
    .string()
    .regex(/^[a-z]{2,3}$/, "must be a language's two- or three-letter code, such as en or hi")
    .meta({ title: "Language code", description: "Such as en or hi: the page's ?lang=" }),
  languageName: text(30).meta({
    title: "The language's name",
    description: "In the language itself, on the link that switches to it",
  }),
  title: text(60).meta({ title: "Heading", description: "With the agency's name, the tab's title" }),
  summary: text(200).meta({
    title: "Description",
    description: "For search results and link previews; {name} stands for the agency's name",
    widget: "text",
  }),
  lead: text(400).meta({ title: "What the page does", widget: "text" }),
  scope: text(400).meta({ title: "What the form erases and who is told", widget: "text" }),
  referenceLabel: text(60).meta({ title: "Reference's label" }),
  referenceHint: text(120).meta({ title: "Reference's hint" }),
  emailLabel: text(60).meta({ title: "E-mail's label" }),
  submit: text(40).meta({ title: "Submit button" }),
  answered: text(120).meta({
    title: "The answer",
    description: "The same whether or not an enquiry matched, so that it tells nobody whether one did",
  }),
  answeredDetail: keeping(300, ["(contact)"], "After the answer", contactLink),
  fieldErrors: z
    .object({
      reference: text(160).meta({ title: "A wrong reference" }),
      email: text(160).meta({ title: "A wrong e-mail address" }),
    })
    .meta({ title: "Under a field that needs fixing" }),
  fixFields: text(120).meta({ title: "Above the form when a field needs fixing" }),
  limited: keeping(
    160,
    ["{minutes}"],
    "Too many tries",
    "{minutes} stands for the minutes until the next try",
  ),
  unavailable: text(160).meta({ title: "When erasing cannot be done now" }),
  noReference: keeping(300, ["(contact)"], "For a visitor without a reference", contactLink),
  policy: keeping(160, ["(policy)"], "Link to the privacy policy", "[words](policy) is the link"),
});

export const withdrawalCollection = defineCollection({
  name: "withdrawal",
  label: "Withdrawal page",
  kind: "file",
  format: "yaml",
  schema: z.object({
    languages: z
      .array(language)
      .min(1)
      .max(4)
      .refine(
        (languages) => new Set(languages.map(({ language }) => language)).size === languages.length,
        "names a language twice",
      )
      .meta({
        title: "Languages",
        description: "The first is the page's own; the privacy notice links to each of its languages here",
        widget: "list",
      }),
    hint: text(200)
      .regex(WITHDRAWAL_HINT, "must have one link to this page, written [words](withdraw)")
      .meta({
        title: "Under the reference in the success notice",
        description: "A line on how to withdraw; [words](withdraw) is its link to this page",
      }),
  }),
});
