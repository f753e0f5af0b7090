import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { collections } from "~/content/collections/index";
import { decapConfigOf } from "../../scripts/admin/decap-config";
import { loadContent } from "../../scripts/lib/content/load";
import { specificationDifferences } from "../../scripts/lib/content/specified-words";
import { FIXTURE_CONTENT_DIR } from "../support/fixture-content";

const repository = resolve(import.meta.dirname, "../..");
const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** The tests' content in a folder's content/, with each file's text changed by its function. */
async function differencesWith(changes: Record<string, (text: string) => string>): Promise<string[]> {
  const root = mkdtempSync(join(tmpdir(), "specified-"));
  folders.push(root);
  cpSync(join(repository, FIXTURE_CONTENT_DIR), join(root, "content"), { recursive: true });
  for (const [file, change] of Object.entries(changes)) {
    const path = join(root, "content", file);
    writeFileSync(path, change(readFileSync(path, "utf8")));
  }
  const { content, faults } = await loadContent(root);
  expect(faults).toEqual([]);
  return specificationDifferences(content);
}

describe("the words the specification quotes", () => {
  test("the tests' content says them all", async () => {
    expect(await differencesWith({})).toEqual([]);
  });

  test("a difference is one line naming the file and the field, and what the specification says", async () => {
    expect(
      await differencesWith({
        "home.yml": (text) =>
          text
            .replace("primaryAction: Start now", "primaryAction: Begin")
            .replace("words: [Business, Startup, Brand]", "words: [Startup, Business, Brand]"),
        "values.yml": (text) =>
          text
            .replace("title: Care", "title: Kindness")
            .replace("Plain-language proposals", "Insurance-grade proposals"),
        "services/saas-development.yml": (text) =>
          text.replace("label: SaaS Development", "label: Software products"),
        "footer.yml": (text) => text.replace("rights: ALL RIGHTS RESERVED", "rights: All rights reserved"),
        "cookie-policy.md": (text) => text.replaceAll("Save preferences", "Cookie settings"),
      }),
    ).toEqual([
      "content/home.yml: hero.words: is “Startup”, “Business”, “Brand”; the specification says “Business”, “Startup”, “Brand”, in this order",
      "content/home.yml: hero.primaryAction: is “Begin”; the specification says “Start now”",
      "content/services/*: label: the specification names “SaaS Development”, which is missing (found “eCommerce Development”, “Mobile App Development”, “Software products”, “Web Application Development”, “Website Development”)",
      "content/values.yml: values[].title: the specification names “Care”, which is missing (found “Simple”, “Reliable”, “Kindness”)",
      "content/values.yml: values[].description: says “insurance”: the values are told in terms of software delivery, not the insurance words the specification copied by mistake",
      "content/footer.yml: rights: is “All rights reserved”; the specification says “ALL RIGHTS RESERVED”",
      "content/cookie-policy.md: body: does not say “Save preferences”, which the specification asks for",
    ]);
  });

  test("reordering what the specification names is the editor's to do", async () => {
    expect(
      await differencesWith({
        "services/website-development.yml": (text) => text.replace("order: 1", "order: 9"),
        "values.yml": (text) => {
          const [head = "", ...values] = text.split(/\n(?= {2}- id:)/);
          return [head, ...values.reverse()].join("\n").replace(/\n*$/, "\n");
        },
      }),
    ).toEqual([]);
  });

  test("every such field tells the editor at /admin that the specification quotes it", () => {
    const hints = JSON.stringify(decapConfigOf(Object.values(collections)));
    for (const words of [
      "“Start now”",
      "“ALL RIGHTS RESERVED”",
      "“LET'S TALK”",
      "“Email sent successfully!”",
      "“Trusted By”",
    ]) {
      expect(hints).toContain(`The product specification quotes this text: ${words}`);
    }
    expect(hints).toContain(
      "The product specification quotes these words, in this order: “Business”, “Startup”, “Brand”",
    );
    expect(hints).toContain("The product specification names “Simple”, “Reliable”, “Care”");
  });
});
