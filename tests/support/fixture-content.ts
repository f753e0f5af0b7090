/**
 * The tests' own content (tests/fixtures/content), which the tests' build is made from: tests
 * read what they expect from it, parsed and checked by the same schemas as content/.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { z } from "zod";
import { type CollectionName, collections } from "~/content/collections/index";
import { splitFrontMatter } from "../../scripts/lib/content/front-matter";
import { readYamlData } from "../../scripts/lib/content/yaml-data";

/** Relative to the repository's root, as CONTENT_DIR names it for the tests' build. */
export const FIXTURE_CONTENT_DIR = "tests/fixtures/content";

const dir = resolve(import.meta.dirname, "../..", FIXTURE_CONTENT_DIR);

type Data<Name extends CollectionName> = z.output<(typeof collections)[Name]["schema"]>;

function parse<Name extends CollectionName>(name: Name, path: string): Data<Name> {
  const collection = collections[name];
  const raw = readFileSync(path, "utf8");
  let input: unknown;
  if (collection.format === "markdown") {
    const split = splitFrontMatter(raw);
    if (!split.ok) throw new Error(`${path}: ${split.message}`);
    const read = readYamlData(split.yaml);
    if (!read.ok) throw new Error(`${path}: ${read.message}`);
    input = { ...(read.data as object), body: split.body };
  } else {
    const read = readYamlData(raw);
    if (!read.ok) throw new Error(`${path}: ${read.message}`);
    input = read.data;
  }
  return collection.schema.parse(input) as Data<Name>;
}

/** A file collection's one entry (`fixture("contact")`: tests/fixtures/content/contact.yml). */
export function fixture<Name extends CollectionName>(name: Name): Data<Name> {
  const extension = collections[name].format === "markdown" ? "md" : "yml";
  return parse(name, join(dir, `${name}.${extension}`));
}

/** A folder collection's entries, each with its slug (its file name), in file-name order. */
export function fixtureEntries<Name extends CollectionName>(
  name: Name,
): { slug: string; data: Data<Name> }[] {
  return readdirSync(join(dir, name))
    .filter((file) => /\.(md|yml)$/.test(file))
    .sort()
    .map((file) => ({ slug: file.replace(/\.(md|yml)$/, ""), data: parse(name, join(dir, name, file)) }));
}
