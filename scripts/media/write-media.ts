/**
 * What the build's media step writes: one Open Graph image per page into public/og/ (the site's
 * pages and those of content/, from the generated content modules), and /admin's files into build/admin/: Decap CMS's
 * bundle (from node_modules/decap-cms), the configuration made from the content collections, the
 * page's own script (server/admin/browser/, bundled) and the site's font for its previews.
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { collections } from "~/content/collections/index";
import { policyNames } from "~/content/collections/policies";
import { footer } from "~/content/generated/footer.server";
import { publishedCaseStudies, publishedInsights } from "~/content/pages.server";
import { policyFor } from "~/content/policies/index.server";
import { site } from "~/content/site";
import { type OgKind, ogImagePathOf } from "~/media/og-path";
import { decapConfigOf } from "../admin/decap-config";
import { type OgImageInput, ogImagePng } from "./og-image";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

export interface OgPage {
  kind: OgKind;
  slug: string;
  title: string;
  eyebrow?: string;
}

/** Writes each page's image to public/og/<kind>/<slug>.png. */
export async function writeOgImages(
  pages: readonly OgPage[],
  publicDir = join(root, "public"),
): Promise<number> {
  let bytes = 0;
  for (const page of pages) {
    const file = join(publicDir, ogImagePathOf(page.kind, page.slug));
    const input: OgImageInput = {
      title: page.title,
      brand: site.name,
      ...(page.eyebrow ? { eyebrow: page.eyebrow } : {}),
    };
    const png = await ogImagePng(input);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, png);
    bytes += png.length;
  }
  return bytes;
}

/**
 * The pages of content/: each published case study and article, and the two lists. Built from
 * the modules the content build generated, so it runs after `npm run build:content`.
 */
export function contentPages(): OgPage[] {
  return [
    { kind: "lists", slug: "case-studies", title: "Case studies", eyebrow: site.name },
    { kind: "lists", slug: "insights", title: "Insights", eyebrow: site.name },
    ...publishedCaseStudies().map((study) => ({
      kind: "case-studies",
      slug: study.slug,
      title: study.title,
      eyebrow: `Case study · ${study.client}`,
    })),
    ...publishedInsights().map((article) => ({
      kind: "insights",
      slug: article.slug,
      title: article.title,
      eyebrow: "Insights",
    })),
  ];
}

/** The pages outside content/: the home page and the policy pages. */
export const sitePages: readonly OgPage[] = [
  { kind: "home", slug: "index", title: footer.tagline },
  ...policyNames.map((name) => ({
    kind: "policies" as const,
    slug: name,
    title: policyFor(name).title,
    eyebrow: site.name,
  })),
];

/** Decap's bundle and its lazily loaded chunks (`<n>.decap-cms.js`, WebAssembly), and config.json. */
export async function writeAdmin(outDir = join(root, "build", "admin")): Promise<void> {
  const dist = join(root, "node_modules", "decap-cms", "dist");
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  for (const file of readdirSync(dist)) {
    if (/^(?:\d+\.)?decap-cms\.js$|\.wasm$/.test(file)) copyFileSync(join(dist, file), join(outDir, file));
  }
  writeFileSync(
    join(outDir, "config.json"),
    `${JSON.stringify(decapConfigOf(Object.values(collections)), null, 2)}\n`,
  );
  await build({
    absWorkingDir: root,
    entryPoints: ["server/admin/browser/admin.ts"],
    outfile: join(outDir, "admin.js"),
    bundle: true,
    format: "iife",
    target: "es2020",
    logLevel: "warning",
  });
  writePreviewFontFace(outDir);
}

/**
 * The site's face for /admin's previews, /admin/preview-fonts.css: the built stylesheet's own
 * @font-face rules with `font-display: block`. A page's `optional` face, preloaded, is there for
 * its first paint; a preview's frame, made anew, would keep the system's face for good whenever the
 * file comes a moment late, and look unlike the page.
 */
function writePreviewFontFace(outDir: string): void {
  const assets = join(root, "public", "build", "_assets");
  const built = readdirSync(assets).find((name) => /^app-[A-Z0-9]+\.css$/.test(name));
  const faces = built ? (readFileSync(join(assets, built), "utf8").match(/@font-face\{[^}]*\}/g) ?? []) : [];
  if (faces.length === 0 || !faces.every((face) => face.includes("font-display:optional"))) {
    throw new Error(
      "the built stylesheet (public/build/_assets/app-*.css) has no @font-face with font-display:optional: run the Remix build first, or update writePreviewFontFace",
    );
  }
  const css = faces.map((face) => face.replace("font-display:optional", "font-display:block")).join("\n");
  writeFileSync(join(outDir, "preview-fonts.css"), `${css}\n`);
}
