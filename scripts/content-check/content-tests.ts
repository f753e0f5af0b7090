/**
 * The tests of what the shipped content says, as opposed to how the site behaves: `npm run
 * check:content` runs each after the build (before it serves the site), in the repository's
 * root, and a test that fails is a fault of the content. A test that checks the content against
 * the product specification's texts belongs in this list.
 */

export interface ContentTest {
  /** What it checks, in the fault line when it fails. */
  name: string;
  /** The program and its arguments (node_modules/.bin is on PATH, as in an npm script). */
  command: string[];
}

export const CONTENT_TESTS: ContentTest[] = [
  {
    name: "the content says what the product specification fixes (`npm run test:specification`)",
    command: ["vitest", "run", "--project", "specification"],
  },
];
