/**
 * The import layers of app/, server/, scripts/ and bench/ (docs/decisions/021-layers.md), checked by
 * `npm run check:layers`: a module imports only from its own layer or the layers below it, and
 * no two modules, nor two folders, import each other in a circle.
 */

/** From the top. Paths are patterns from the repository's root. */
const LAYERS = [
  { name: "entry points", paths: ["^server/", "^scripts/", "^bench/"] },
  {
    name: "routes",
    paths: [
      "^app/routes/",
      "^app/root[.]tsx$",
      "^app/entry[.](client|server)[.]tsx$",
      // /admin's previews: pages' components given an editor's entry, exported by entry.server.
      "^app/editor-preview/",
    ],
  },
  {
    name: "page parts",
    paths: [
      "^app/components/",
      // The privacy notice's React component, beside its texts: it reads the route's action data.
      "^app/privacy-notice/notice[.]server[.]tsx$",
      "^app/hooks/",
      "^app/utils/",
      "^app/root-data[.]ts$",
      "^app/json-ld[.]server[.]ts$",
    ],
  },
  {
    name: "features",
    paths: ["^app/enquiry/", "^app/vitals/", "^app/campaigns/", "^app/shared-documents/", "^app/withdrawal/"],
  },
  { name: "lead store", paths: ["^app/leads/"] },
  {
    name: "plumbing",
    paths: [
      "^app/mail/",
      "^app/destinations/",
      "^app/http/",
      "^app/db/",
      "^app/hydration/",
      "^app/nonce[.]tsx$",
    ],
  },
  {
    name: "leaves",
    paths: [
      "^app/lead-parts/",
      "^app/content/",
      "^app/text/",
      "^app/env[.]server[.]ts$",
      "^app/tracking-parameters[.]server[.]ts$",
      "^app/webhook-url[.]server[.]ts$",
      "^app/url-rules[.]server[.]ts$",
      "^app/network-errors[.]ts$",
      // The privacy notice, but its component (a page part, above).
      "^app/privacy-notice/(?!notice[.]server[.]tsx$)",
      "^app/images/",
      "^app/media/",
      "^app/styles/",
    ],
  },
];

const placed = LAYERS.flatMap((layer) => layer.paths);

/** One rule per layer below the top: nothing in it imports from a layer above it. */
const upward = LAYERS.slice(1).map((layer, index) => ({
  name: `not-up-from-${layer.name.replaceAll(" ", "-")}`,
  comment: `${layer.name} import only from: ${LAYERS.slice(index + 1)
    .map((below) => below.name)
    .join(", ")}.`,
  severity: "error",
  from: { path: layer.paths },
  to: { path: LAYERS.slice(0, index + 1).flatMap((above) => above.paths) },
}));

export default {
  forbidden: [
    ...upward,
    {
      name: "no-circular",
      comment: "Two modules that import each other, through any others, are one module in two files.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "no-circular-folders",
      comment: "Two folders whose modules import each other are one folder: move what both use down a layer.",
      severity: "error",
      scope: "folder",
      from: {},
      to: { circular: true },
    },
    {
      name: "not-from-unplaced",
      comment: "Every module of app/ is in a layer: place a new one in LAYERS and in the decision.",
      severity: "error",
      from: { path: "^app/", pathNot: placed },
      to: {},
    },
    {
      name: "not-to-unplaced",
      comment: "Every module of app/ is in a layer: place a new one in LAYERS and in the decision.",
      severity: "error",
      from: {},
      to: { path: "^app/", pathNot: placed },
    },
    {
      name: "mail-through-send-function",
      comment:
        "Delivery sends with the function server/lead-destinations.ts makes from the mail transport: types only here.",
      severity: "error",
      from: { path: "^app/leads/" },
      to: { path: "^app/mail/", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "no-test-code-in-the-image",
      comment:
        "What build/ bundles (the server, the app, the operator's commands of scripts/build-commands.js and what they import of scripts/lib/) never imports the benchmarks (bench/) or the tests' fakes and fixtures (tests/).",
      severity: "error",
      from: {
        path: [
          "^app/",
          "^server/",
          "^scripts/(leads|vitals)[.]ts$",
          "^scripts/lib/leads/",
          "^scripts/lib/table[.]js$",
        ],
      },
      // But the tests' own content, whose images the generated modules import in the tests' build
      // (npm run build:fixtures; the image's build is of content/).
      to: { path: ["^bench/", "^tests/"], pathNot: "^tests/fixtures/content/images/" },
    },
    {
      name: "not-to-unresolvable",
      comment: "An import that cannot be resolved cannot be checked.",
      severity: "error",
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    includeOnly: "^(app|server|scripts|bench|tests)/",
    doNotFollow: { path: "node_modules" },
    // Type-only imports count: a type import up a layer or in a circle ties the modules as well.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".tsx", ".js", ".json"] },
  },
};
