/**
 * What the local editor's API passes on to decap-server: each action decap-server's git mode
 * knows (node_modules/decap-server/dist/middlewares.js), with the fields it reads, on the one
 * branch Decap is configured with, for the site's own collections, every path under content/,
 * and every media file (the library's, an upload) in content/images/.
 * The request forwarded is the parsed one, so a field not named here never reaches decap-server.
 */
import * as z from "zod";
import { MEDIA_FOLDER } from "../../../scripts/admin/decap-config";
import { contentPathProblem, mediaPathProblem } from "./content-paths";

/** Decap's workflow statuses, kept in a draft branch's description. */
const STATUSES = ["draft", "pending_review", "pending_publish"] as const;

const MAX_FILES = 200;

export interface DecapRequestRules {
  /** Decap's `backend.branch`: drafts start from it, publishing merges into it. */
  branch: string;
  /** The site's collections (build/admin/config.json). */
  collections: ReadonlySet<string>;
}

const pathWithout = (problemOf: (path: string) => string | undefined) =>
  z.string().superRefine((path, context) => {
    const problem = problemOf(path);
    if (problem) context.addIssue({ code: "custom", message: problem });
  });
const contentPath = pathWithout(contentPathProblem);
/** The media library's files, and every upload: content/images/ only, as the editor's configuration says. */
const mediaPath = pathWithout(mediaPathProblem);

/** A slug as Decap makes one (letters of any script, digits, `-`, `_`, `.`), safe in a branch name. */
const slug = z
  .string()
  .max(200)
  .regex(/^[\p{L}\p{M}\p{N}][\p{L}\p{M}\p{N}._-]*$/u, "is not a slug")
  .refine(
    (value) => !value.includes("..") && !value.endsWith(".") && !value.endsWith(".lock"),
    "is not a slug",
  );

/** A commit message: no control characters but line breaks, and never read as an option. */
const commitMessage = z
  .string()
  .min(1)
  .max(1000)
  .refine(
    (message) =>
      !message.startsWith("-") && ![...message].some((c) => c !== "\n" && (c < " " || c === "\u007f")),
    "is not a commit message",
  );

/** The parser of one request to decap-server's API, for this site's branch and collections. */
export function decapRequestSchema({ branch, collections }: DecapRequestRules) {
  const collection = z
    .string()
    .refine((name) => collections.has(name), "is not one of the site's collections");
  const onBranch = { branch: z.literal(branch) };
  const entryKey = { ...onBranch, collection, slug };
  const entryId = z.string().refine((id) => {
    const cut = id.indexOf("/");
    return collections.has(id.slice(0, cut)) && slug.safeParse(id.slice(cut + 1)).success;
  }, "is not <collection>/<slug>");
  const asset = z.object({ path: mediaPath, content: z.string(), encoding: z.literal("base64") });
  const dataFile = z.object({ slug, path: contentPath, raw: z.string(), newPath: contentPath.optional() });
  const action = <A extends string, P extends z.ZodRawShape>(name: A, params: P) =>
    z.object({ action: z.literal(name), params: z.object(params) });

  return z.discriminatedUnion("action", [
    z.object({ action: z.literal("info") }),
    action("entriesByFolder", {
      ...onBranch,
      folder: contentPath,
      extension: z.string().regex(/^[A-Za-z0-9]{0,16}$/),
      depth: z.number().int().min(0).max(100),
    }),
    action("entriesByFiles", {
      ...onBranch,
      files: z.array(z.object({ path: contentPath, label: z.string().max(200).optional() })).max(MAX_FILES),
    }),
    action("getEntry", { ...onBranch, path: contentPath }),
    action("unpublishedEntries", onBranch),
    action("unpublishedEntry", {
      ...onBranch,
      id: entryId.optional(),
      collection: collection.optional(),
      slug: slug.optional(),
    }).refine(
      ({ params }) => params.id !== undefined || (params.collection && params.slug),
      "names no entry",
    ),
    action("unpublishedEntryDataFile", { ...entryKey, id: z.string().max(300), path: contentPath }),
    action("unpublishedEntryMediaFile", { ...entryKey, id: z.string().max(300), path: mediaPath }),
    action("deleteUnpublishedEntry", entryKey),
    action("persistEntry", {
      ...onBranch,
      dataFiles: z.array(dataFile).min(1).max(MAX_FILES),
      assets: z.array(asset).max(MAX_FILES),
      options: z.object({
        collectionName: collection.optional(),
        commitMessage,
        useWorkflow: z.boolean(),
        status: z.enum(STATUSES),
        hasSubfolders: z.boolean().optional(),
      }),
    }).refine(
      ({ params }) => !params.options.useWorkflow || params.options.collectionName !== undefined,
      "a draft names no collection",
    ),
    action("updateUnpublishedEntryStatus", { ...entryKey, newStatus: z.enum(STATUSES) }),
    action("publishUnpublishedEntry", entryKey),
    action("getMedia", { ...onBranch, mediaFolder: z.literal(MEDIA_FOLDER) }),
    action("getMediaFile", { ...onBranch, path: mediaPath }),
    action("persistMedia", { ...onBranch, asset, options: z.object({ commitMessage }) }),
    action("deleteFile", { ...onBranch, path: contentPath, options: z.object({ commitMessage }) }),
    action("deleteFiles", {
      ...onBranch,
      paths: z.array(contentPath).min(1).max(MAX_FILES),
      options: z.object({ commitMessage }),
    }),
    action("getDeployPreview", entryKey),
  ]);
}

export type DecapRequest = z.output<ReturnType<typeof decapRequestSchema>>;

/** Every path a request names, for the check on disk (content-paths.ts). */
export function pathsOf(request: DecapRequest): string[] {
  if (!("params" in request)) return [];
  const params: Record<string, unknown> = request.params;
  const found: string[] = [];
  const collect = (value: unknown, key = "") => {
    if (typeof value === "string") {
      if (["path", "newPath", "folder", "mediaFolder", "paths"].includes(key)) found.push(value);
    } else if (Array.isArray(value)) {
      for (const item of value) collect(item, key);
    } else if (value !== null && typeof value === "object") {
      for (const [name, inner] of Object.entries(value)) collect(inner, name);
    }
  };
  collect(params);
  return found;
}
