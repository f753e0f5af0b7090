/**
 * Writes the typed modules the app imports from what the content build loaded
 * (app/content/generated/, gitignored). A raster image carries the responsive set the build made
 * of it in public/media/ (./images); an SVG becomes an asset import, so the Remix build copies it
 * into public/build/ with a hashed name. Either way the running server never reads content/.
 * Words only the server renders, or hands a page as loader data, go in `.server.ts` modules,
 * which the browser's bundle cannot take in.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { policyNames } from "~/content/collections/policies";
import { articleEntryOf, pageEntryOf } from "~/content/page-entries";
import { policyParts } from "~/content/policies/parts";
import { contentPathOf, isLoadedImage, type LoadedContent, type LoadedEntry, type LoadedImage } from "./load";

export const GENERATED_DIR = "app/content/generated";

/**
 * Writes every generated module under `root`, leaving unchanged files untouched (no rebuild in
 * dev); an SVG is imported from `dir`, the folder of content the build read.
 */
export function writeGenerated(root: string, content: LoadedContent, dir = join(root, "content")): string[] {
  const folder = join(root, GENERATED_DIR);
  const module = moduleWriter(relative(folder, dir));
  mkdirSync(folder, { recursive: true });
  const modules: Record<string, string> = {
    "services.ts": module(
      "services",
      "ServiceEntry",
      "readonly ServiceEntry[]",
      [...content.services]
        .sort((a, b) => Number(a.data.order) - Number(b.data.order))
        .map((entry) => ({ id: entry.slug, ...entry.data })),
    ),
    "delivery.ts": module(
      "deliveryCards",
      "DeliveryCardEntry",
      "readonly DeliveryCardEntry[]",
      single(content.delivery).cards,
    ),
    "values.ts": module(
      "coreValues",
      "CoreValueEntry",
      "readonly CoreValueEntry[]",
      single(content.values).values,
    ),
    "partners.ts": module(
      "partners",
      "PartnerEntry",
      "readonly PartnerEntry[]",
      single(content.partners).partners,
    ),
    "contact.ts": module("contact", "ContactEntry", "ContactEntry", single(content.contact)),
    "home.server.ts": module("home", "HomeEntry", "HomeEntry", single(content.home)),
    "navigation.server.ts": module(
      "navigationLabels",
      "NavigationEntry",
      "NavigationEntry",
      single(content.navigation),
    ),
    "footer.server.ts": module("footer", "FooterEntry", "FooterEntry", single(content.footer)),
    "pages.ts": module("pageWords", "PagesEntry", "PagesEntry", single(content.pages)),
    "withdrawal.ts": module(
      "withdrawalWords",
      "WithdrawalEntry",
      "WithdrawalEntry",
      single(content.withdrawal),
    ),
    "enquiry-form.server.ts": module(
      "enquiryForm",
      "EnquiryFormEntry",
      "EnquiryFormEntry",
      single(content["enquiry-form"]),
    ),
    "policies.server.ts": module(
      "policyTexts",
      "PolicyText",
      "Readonly<Record<PolicyName, PolicyText>>",
      Object.fromEntries(policyNames.map((name) => [name, policy(single(content[name]), content[name])])),
      "PolicyName",
    ),
    "case-studies.server.ts": module(
      "caseStudies",
      "CaseStudy",
      "readonly CaseStudy[]",
      newestFirst(content["case-studies"]).map(page),
    ),
    "insights.server.ts": module(
      "insights",
      "Insight",
      "readonly Insight[]",
      newestFirst(content.insights).map(article),
    ),
    "images.server.ts": module("builtImages", "BuiltImages", "BuiltImages", builtImages(content)),
  };
  const written: string[] = [];
  for (const [name, source] of Object.entries(modules)) {
    const path = join(folder, name);
    if (existsSync(path) && readFileSync(path, "utf8") === source) continue;
    writeFileSync(path, source);
    written.push(path);
  }
  return written;
}

function single(entries: LoadedEntry[]): Record<string, unknown> {
  const [entry] = entries;
  if (!entry) throw new Error("a file collection has no entry: the loader reports that as a fault");
  return entry.data;
}

function newestFirst(entries: LoadedEntry[]): LoadedEntry[] {
  return [...entries].sort(
    (a, b) => String(b.data.date).localeCompare(String(a.data.date)) || a.slug.localeCompare(b.slug),
  );
}

const page = (entry: LoadedEntry) => pageEntryOf(entry.slug, entry.data, entry.html ?? "");
const article = (entry: LoadedEntry) =>
  articleEntryOf(entry.slug, entry.data, entry.html ?? "", entry.words ?? 0);

/**
 * Every image the content names, by its path in the content files (`images/photo.jpg`), as the
 * build made it, without the alt text each use gives it: /admin's previews show an image the
 * build knows as the page does.
 */
function builtImages(content: LoadedContent): Record<string, LoadedImage> {
  const images: Record<string, LoadedImage> = {};
  const visit = (value: unknown): void => {
    if (isLoadedImage(value)) {
      const path = contentPathOf.get(value);
      if (path !== undefined) images[path] = { ...value, alt: "" };
    } else if (Array.isArray(value)) {
      value.forEach(visit);
    } else if (typeof value === "object" && value !== null) {
      Object.values(value).forEach(visit);
    }
  };
  for (const entry of Object.values(content).flat()) visit(entry.data);
  return Object.fromEntries(Object.entries(images).sort(([a], [b]) => a.localeCompare(b)));
}

/** A policy as the server fills it in: its front matter, its introduction and its sections, as HTML. */
function policy(data: Record<string, unknown>, [entry]: LoadedEntry[]): Record<string, unknown> {
  const { body: _body, ...fields } = data;
  return { ...fields, ...policyParts(entry?.html ?? "") };
}

/** Writes one module: a header comment, one import per image (from `contentPath`), and the typed data. */
const moduleWriter = (contentPath: string) =>
  function module(
    exportName: string,
    typeName: string,
    type: string,
    data: unknown,
    ...types: string[]
  ): string {
    const imports = new Map<string, string>();
    const json = JSON.stringify(
      data,
      (_key, value: unknown) => {
        // A raster image's files are in public/media/ already (./images): its data is all the page needs.
        if (isLoadedImage(value) && !value.responsive) {
          let name = imports.get(value.src);
          if (!name) {
            name = `image${imports.size}`;
            imports.set(value.src, name);
          }
          return { ...value, src: `\u0000${name}\u0000` };
        }
        return value;
      },
      2,
    ).replace(/"\\u0000(image\d+)\\u0000"/g, "$1");
    const importLines = [...imports].map(([src, name]) => `import ${name} from "${contentPath}/${src}";`);
    return [
      `/** Generated by \`npm run build:content\` from ${contentPath.replace(/^(\.\.\/)+/, "")}/ (do not edit: edit it and build). */`,
      `import type { ${[typeName, ...types].join(", ")} } from "~/content/entries";`,
      ...importLines,
      "",
      `export const ${exportName}: ${type} = ${json};`,
      "",
    ].join("\n");
  };
