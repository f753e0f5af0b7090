/** Fields several content collections share: slugs, images with alt text, dates, SEO overrides, publishing. */
import { z } from "zod";

/** A URL segment: lower-case letters, digits and single hyphens. */
export const slugField = z
  .string()
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "must be lower-case letters, digits and hyphens")
  .max(80);

/** Plain text of at most `max` characters, not blank. */
export const text = (max: number) =>
  z.string().trim().min(1, "is empty").max(max, `is longer than ${max} characters`);

/**
 * An image named in a content file: its path under `content/` (`images/…`, where the editor
 * uploads) and its alt text. The build checks the file exists and reads its width and height.
 */
export const imageField = z
  .object({
    src: z
      .string()
      .regex(/^images\/[A-Za-z0-9._-]+\.(?:png|jpe?g|webp|avif|svg)$/, "must be a file in content/images/")
      .meta({ title: "Image", widget: "image" }),
    alt: text(250).meta({
      title: "Alt text",
      description: "What the image shows, for people who cannot see it",
    }),
  })
  .meta({ title: "Image" });

/**
 * A real calendar date, `YYYY-MM-DD` (zod's ISO date knows each month's length and leap years).
 * The content build reads YAML without timestamps, so a date arrives as the string written.
 */
export const dateField = z.iso.date({
  error: (issue) =>
    typeof issue.input === "string"
      ? `must be a real calendar date, YYYY-MM-DD: ${issue.input} is none`
      : "must be a date, YYYY-MM-DD",
});

/** What a page's file may override of its search and link-preview metadata. */
export const seoField = z
  .object({
    title: text(70).optional().meta({ title: "SEO title" }),
    description: text(170).optional().meta({ title: "SEO description" }),
    image: imageField.optional().meta({ title: "Link-preview image" }),
  })
  .optional()
  .meta({ title: "Search and link previews", description: "Leave empty to use the title and summary" });

/** Fields every page of a folder collection carries: when, whether published, its former slugs. */
export const pageFields = {
  date: dateField.meta({ title: "Date", widget: "datetime" }),
  updated: dateField.optional().meta({ title: "Updated", widget: "datetime" }),
  published: z.boolean().default(true).meta({
    title: "Published",
    description: "Unpublished pages answer 410 Gone and leave the sitemap and feed",
  }),
  redirect_from: z.array(slugField).default([]).meta({
    title: "Former slugs",
    description: "Old addresses that answer 301 to this page",
    widget: "list",
  }),
  seo: seoField,
  body: z.string().trim().min(1, "is empty").meta({ title: "Body", widget: "markdown" }),
};
