/** The site's contact facts (address, e-mail, phone, WhatsApp): one YAML file, shown in the footer, the contact section and the structured data. */
import { z } from "zod";
import { defineCollection } from "./collection";
import { text } from "./fields";

/** A number as shown (`+91 80 4718 2290`) as digits alone. */
const digitsOf = (shown: string) => shown.replace(/[\s+().-]/g, "");

export const contactCollection = defineCollection({
  name: "contact",
  label: "Contact details",
  kind: "file",
  format: "yaml",
  schema: z.object({
    email: z.email("must be an e-mail address").meta({ title: "E-mail" }),
    phone: z
      .object({
        display: text(30).meta({ title: "As shown" }),
        e164: z
          .string()
          .regex(/^\+[1-9]\d{6,14}$/, "must be +country code and number, digits only")
          .meta({ title: "E.164" }),
      })
      .refine((phone) => digitsOf(phone.display) === phone.e164.slice(1), {
        message: "must be the number E.164 says, with spaces at most: the link dials E.164",
        path: ["display"],
      })
      .meta({ title: "Phone" }),
    whatsapp: z
      .object({
        display: text(30).meta({ title: "As shown" }),
        number: z
          .string()
          .regex(
            /^[1-9]\d{7,14}$/,
            "must be the international number: digits only, country code first, no + or leading zero",
          )
          .meta({ title: "wa.me number" }),
        label: text(40).meta({ title: "The link's words", description: "On the link that opens the chat" }),
        greeting: text(160).meta({
          title: "Greeting",
          description:
            "The message the chat opens with, which the visitor can change before sending it; with JavaScript, the campaign the visit came from is added in brackets",
          widget: "text",
        }),
      })
      .refine((whatsapp) => digitsOf(whatsapp.display) === whatsapp.number, {
        message:
          "must be the wa.me number, with + and spaces at most: the link opens a chat with that number",
        path: ["display"],
      })
      .optional()
      .meta({
        title: "WhatsApp",
        description: "A mobile number on WhatsApp; leave empty to show no WhatsApp link",
      }),
    address: z
      .object({
        street: text(120).meta({ title: "Street" }),
        locality: text(60).meta({ title: "City" }),
        region: text(60).meta({ title: "State" }),
        postalCode: text(12).meta({ title: "PIN code" }),
        country: text(60).meta({ title: "Country" }),
        countryCode: z
          .string()
          .regex(/^[A-Z]{2}$/, "must be two capital letters")
          .meta({ title: "Country code" }),
        mapsUrl: z.url("must be a URL").meta({ title: "Map link" }),
      })
      .meta({ title: "Address" }),
  }),
});
