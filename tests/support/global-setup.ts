import { resolve } from "node:path";
import { builtContentDirectory } from "../../scripts/lib/content-directory.js";
import { FIXTURE_CONTENT_DIR } from "./fixture-content";
import { IMAGE_NODE_LINE, installNode } from "./node-line";

/**
 * Before any worker starts: the build must be of the tests' own content (what the tests expect is
 * read from it), and the image's Node line is installed for the "node-24" project.
 */
export default function globalSetup() {
  const built = builtContentDirectory(resolve(import.meta.dirname, "../.."));
  if (built !== FIXTURE_CONTENT_DIR) {
    throw new Error(
      `The end-to-end tests run on the site built from ${FIXTURE_CONTENT_DIR}/, and build/ is ${built === null ? "missing or unrecorded" : `of ${built}/`}: run npm run build:fixtures first (npm run test:e2e does).`,
    );
  }
  const binary = installNode(IMAGE_NODE_LINE);
  console.log(`Node ${IMAGE_NODE_LINE}: ${binary}`);
}
