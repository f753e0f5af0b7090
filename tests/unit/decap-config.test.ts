import { describe, expect, it } from "vitest";
import * as z from "zod";
import { defineCollection } from "~/content/collections/collection";
import { decapConfigOf } from "../../scripts/admin/decap-config";
import { markedSummary, SUMMARY_SEPARATOR } from "../../server/admin/browser/list-marks";

const projects = defineCollection({
  name: "projects",
  label: "Projects",
  kind: "folder",
  format: "markdown",
  schema: z.object({
    title: z.string().min(3).max(90).meta({ title: "Title", description: "The heading." }),
    date: z.iso.date().meta({ title: "Date" }),
    cover: z.string().meta({ title: "Cover", widget: "image" }),
    featured: z.boolean().default(false).meta({ title: "Featured" }),
    status: z.enum(["draft", "live"]).meta({ title: "Status" }),
    year: z.number().int().optional(),
    stack: z.array(z.string()).optional().meta({ title: "Stack" }),
    results: z.array(z.object({ figure: z.string().max(12), label: z.string() })).meta({ title: "Results" }),
    body: z.string().meta({ title: "Story", widget: "markdown" }),
  }),
});

const contact = defineCollection({
  name: "contact",
  label: "Contact details",
  kind: "file",
  format: "yaml",
  schema: z.object({ email: z.email().meta({ title: "E-mail" }) }),
});

describe("decapConfigOf", () => {
  it("shows drafts before they are published, and keeps uploads in content/images, named images/<file>", () => {
    expect(decapConfigOf([projects])).toMatchObject({
      publish_mode: "editorial_workflow",
      media_folder: "content/images",
      public_folder: "images",
    });
  });

  it("makes a folder collection's fields from its zod schema: widgets, labels, hints, required and length", () => {
    const [collection] = decapConfigOf([projects]).collections;
    expect(collection).toMatchObject({
      name: "projects",
      folder: "content/projects",
      extension: "md",
      format: "frontmatter",
      create: true,
    });
    expect(collection?.fields).toEqual([
      {
        name: "title",
        label: "Title",
        hint: "The heading.",
        widget: "string",
        pattern: ["^[\\s\\S]{3,90}$", "3 to 90 characters."],
      },
      {
        name: "date",
        label: "Date",
        widget: "datetime",
        format: "YYYY-MM-DD",
        date_format: "YYYY-MM-DD",
        time_format: false,
      },
      { name: "cover", label: "Cover", widget: "image" },
      { name: "featured", label: "Featured", widget: "boolean", required: false },
      { name: "status", label: "Status", widget: "select", options: ["draft", "live"] },
      { name: "year", label: "year", widget: "number", value_type: "int", required: false },
      {
        name: "stack",
        label: "Stack",
        widget: "list",
        required: false,
        field: { name: "item", label: "Stack", widget: "string" },
      },
      {
        name: "results",
        label: "Results",
        widget: "list",
        fields: [
          {
            name: "figure",
            label: "figure",
            widget: "string",
            pattern: ["^[\\s\\S]{0,12}$", "At most 12 characters."],
          },
          { name: "label", label: "label", widget: "string" },
        ],
      },
      { name: "body", label: "Story", widget: "markdown" },
    ]);
  });

  it("names a new entry by its singular (the button reads New <singular>), and keeps no media folder of its own", () => {
    const articles = defineCollection({
      ...projects,
      name: "articles",
      label: "Insights",
      labelSingular: "article",
    });
    const [collection] = decapConfigOf([articles]).collections;
    expect(collection).toMatchObject({ label: "Insights", label_singular: "article" });
    expect(collection).not.toHaveProperty("media_folder");
    expect(collection).not.toHaveProperty("public_folder");
    expect(decapConfigOf([projects]).collections[0]).not.toHaveProperty("label_singular");
  });

  it("gives a page collection (title, published, date) a summary its list marks unpublished and scheduled entries by", () => {
    const pages = defineCollection({
      ...projects,
      schema: projects.schema.extend({ published: z.boolean().default(true) }),
    });
    const summary = decapConfigOf([pages]).collections[0]?.summary ?? "";
    expect(summary).toBe(["{{title}}", "{{published}}", "{{date}}"].join(SUMMARY_SEPARATOR));
    expect(decapConfigOf([projects]).collections[0]).not.toHaveProperty("summary");
    // What Decap makes of it for four entries, marked on 2026-12-06.
    const decap = (published: string, date: string) =>
      summary.replace("{{title}}", "Ledgerly").replace("{{published}}", published).replace("{{date}}", date);
    expect(markedSummary(decap("", "2026-11-20"), "2026-12-06")).toBe("Ledgerly");
    expect(markedSummary(decap("true", "2026-12-06"), "2026-12-06")).toBe("Ledgerly");
    expect(markedSummary(decap("false", "2026-11-20"), "2026-12-06")).toBe("Ledgerly · Unpublished");
    expect(markedSummary(decap("false", "2027-01-15"), "2026-12-06")).toBe(
      "Ledgerly · Unpublished · Scheduled for 15 January 2027",
    );
  });

  it("makes a file collection one editable file", () => {
    const [collection] = decapConfigOf([contact]).collections;
    expect(collection).toEqual({
      name: "contact",
      label: "Contact details",
      files: [
        {
          name: "contact",
          label: "Contact details",
          file: "content/contact.yml",
          fields: [{ name: "email", label: "E-mail", widget: "string" }],
        },
      ],
    });
  });

  it("refuses a field it has no widget for, naming it", () => {
    const odd = defineCollection({ ...contact, schema: z.object({ when: z.date() }) });
    expect(() => decapConfigOf([odd])).toThrow(/field "when" \(a zod date\)/);
  });

  it("lets an editor leave an optional group empty: none of its fields is required, a required group's are", () => {
    const quoted = defineCollection({
      ...contact,
      schema: z.object({
        cover: z.object({ src: z.string(), alt: z.string() }).meta({ title: "Cover" }),
        quote: z
          .object({ text: z.string(), by: z.object({ name: z.string() }) })
          .optional()
          .meta({ title: "Quote" }),
      }),
    });
    const [fields] = decapConfigOf([quoted]).collections.map((collection) => collection.files?.[0]?.fields);
    expect(fields?.[0]?.fields?.map((field) => field.required)).toEqual([undefined, undefined]);
    expect(fields?.[1]).toMatchObject({
      required: false,
      fields: [
        { name: "text", required: false },
        { name: "by", required: false, fields: [{ required: false }] },
      ],
    });
  });
});
