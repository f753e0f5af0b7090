/** The enquiry form's words: its labels, the hints under a field that needs fixing, and the notices. */
import { z } from "zod";
import { defineCollection } from "./collection";
import { text } from "./fields";
import { quoted } from "./quoted";

/** One word or a few, for a field's label. */
const label = (title: string) => text(30).meta({ title });

/** A field's hint, which may say its limit as `{max}`. */
const hint = (title: string) =>
  text(120).meta({
    title,
    description: "Shown under the field when it needs fixing; {max} stands for its limit",
  });

export const enquiryFormCollection = defineCollection({
  name: "enquiry-form",
  label: "Enquiry form",
  kind: "file",
  format: "yaml",
  schema: z.object({
    labels: z
      .object({
        name: label("Name"),
        email: label("E-mail"),
        countryCode: label("Country code"),
        phoneNumber: label("Phone number"),
        message: label("Message"),
      })
      .meta({ title: "Labels" }),
    optional: text(20).meta({
      title: "After an optional field's label",
      description: "The message is optional",
    }),
    submit: text(20).meta({ title: "Submit button" }),
    hints: z
      .object({
        name: hint("Name"),
        email: hint("E-mail"),
        countryCode: hint("Country code"),
        phoneNumber: hint("Phone number"),
        message: hint("Message"),
        lineBreak: text(120).meta({
          title: "A line break or invisible character in a one-line field",
          description: "Shown under the name, e-mail, country code or phone number",
        }),
        controlCharacters: text(120).meta({ title: "Invisible control characters in the message" }),
        hiddenCharacters: text(120).meta({
          title: "Hidden characters in any field",
          description: "Unicode tag characters or a stray joiner, which no one types on purpose",
        }),
        addressCharacter: text(120).meta({ title: "An invisible character in the e-mail address" }),
      })
      .meta({ title: "Hints" }),
    notices: z
      .object({
        sent: text(80).meta({ title: "Sent", ...quoted("Email sent successfully!") }),
        invalid: text(80).meta({
          title: "A field needs fixing",
          ...quoted("Please fill the required details."),
        }),
        failed: text(80).meta({
          title: "Could not be sent",
          ...quoted("Failed to send email. Please try again."),
        }),
      })
      .meta({ title: "Notices" }),
    reference: text(40).meta({
      title: "Before the enquiry's reference",
      description: "Shown below the form after sending, before the reference (NRM-7KQ2-M9XD)",
    }),
  }),
});
