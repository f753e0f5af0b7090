/** Every content collection: the content build, `npm run check` and /admin's configuration read this list. */
import { caseStudies } from "./case-studies";
import type { ContentCollection } from "./collection";

export const collections: readonly ContentCollection[] = [caseStudies];
