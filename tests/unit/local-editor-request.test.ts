import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { contentPathProblem, pathLeavingContent } from "../../server/admin/local-editor/content-paths";
import { decapRequestSchema, pathsOf } from "../../server/admin/local-editor/decap-request";

const parse = decapRequestSchema({
  branch: "content-edits",
  collections: new Set(["case-studies", "contact"]),
});

/** A draft of a case study, as Decap's proxy backend sends it, with the paths given. */
const draft = (path: string, asset = "content/images/photo.jpg") => ({
  branch: "content-edits",
  action: "persistEntry",
  params: {
    branch: "content-edits",
    dataFiles: [{ slug: "ledgerly", path, raw: "---\ntitle: Ledgerly\n---\n" }],
    assets: [{ path: asset, content: "aGVsbG8=", encoding: "base64" }],
    options: {
      collectionName: "case-studies",
      commitMessage: "Create Case studies “ledgerly”",
      useWorkflow: true,
      status: "draft",
    },
  },
});

describe("the local editor's requests", () => {
  it("passes a draft under content/ on the configured branch, with the fields decap-server reads only", () => {
    const parsed = parse.safeParse({ ...draft("content/case-studies/ledgerly.md"), extra: 1 });
    expect(parsed.success).toBe(true);
    if (!parsed.success) return;
    expect(parsed.data).not.toHaveProperty("extra");
    expect(pathsOf(parsed.data)).toEqual(["content/case-studies/ledgerly.md", "content/images/photo.jpg"]);
  });

  it.each([
    [".git/config", "params.dataFiles.0.path is not under content/"],
    ["scripts/start.js", "params.dataFiles.0.path is not under content/"],
    [".github/workflows/x.yml", "params.dataFiles.0.path is not under content/"],
    ["content/../scripts/start.js", "params.dataFiles.0.path has an empty, . or .. segment"],
    ["content/.git/config", "params.dataFiles.0.path names a hidden file or folder"],
    ["/etc/passwd", "params.dataFiles.0.path is not under content/"],
    ["content\\..\\x.md", "params.dataFiles.0.path has a control character or a backslash"],
  ])("refuses a write to %s", (path, reason) => {
    const parsed = parse.safeParse(draft(path));
    expect(parsed.success).toBe(false);
    const issue = parsed.error?.issues[0];
    expect(`${issue?.path.join(".")} ${issue?.message}`).toBe(reason);
  });

  it("refuses an upload outside content/, another branch, a collection not the site's, a slug that is not one, an unknown action", () => {
    expect(parse.safeParse(draft("content/case-studies/a.md", ".git/hooks/pre-commit")).success).toBe(false);
    const other = draft("content/case-studies/a.md");
    expect(parse.safeParse({ ...other, params: { ...other.params, branch: "main" } }).success).toBe(false);
    const foreign = { ...other.params.options, collectionName: "scripts" };
    expect(parse.safeParse({ ...other, params: { ...other.params, options: foreign } }).success).toBe(false);
    const badSlug = [{ ...other.params.dataFiles[0], slug: "../../main" }];
    expect(parse.safeParse({ ...other, params: { ...other.params, dataFiles: badSlug } }).success).toBe(
      false,
    );
    expect(parse.safeParse({ action: "getNotes", params: { branch: "content-edits" } }).success).toBe(false);
    expect(
      parse.safeParse({
        action: "publishUnpublishedEntry",
        params: { branch: "content-edits", collection: "case-studies", slug: "ledgerly" },
      }).success,
    ).toBe(true);
  });

  it("keeps the media library and every upload in content/images/", () => {
    const media = (action: string, params: object) => ({
      action,
      params: { branch: "content-edits", ...params },
    });
    const reason = (request: object) => {
      const parsed = parse.safeParse(request);
      const issue = parsed.error?.issues[0];
      return parsed.success ? "passed" : `${issue?.path.join(".")} ${issue?.message}`;
    };
    expect(reason(media("getMedia", { mediaFolder: "content/images" }))).toBe("passed");
    expect(reason(media("getMedia", { mediaFolder: "content" }))).toMatch(/^params\.mediaFolder /);
    expect(reason(media("getMedia", { mediaFolder: "content/case-studies" }))).toMatch(
      /^params\.mediaFolder /,
    );
    expect(reason(media("getMediaFile", { path: "content/images/photo.jpg" }))).toBe("passed");
    expect(reason(media("getMediaFile", { path: "content/case-studies/pawpal.md" }))).toBe(
      "params.path is not a file in content/images/",
    );
    expect(reason(media("getMediaFile", { path: "content/images/deeper/photo.jpg" }))).toBe(
      "params.path is not a file in content/images/",
    );
    const upload = (path: string) =>
      media("persistMedia", {
        asset: { path, content: "aGVsbG8=", encoding: "base64" },
        options: { commitMessage: "Upload “photo.jpg”" },
      });
    expect(reason(upload("content/images/photo.jpg"))).toBe("passed");
    expect(reason(upload("content/insights/photo.jpg"))).toBe(
      "params.asset.path is not a file in content/images/",
    );
    expect(reason(draft("content/case-studies/ledgerly.md", "content/case-studies/photo.jpg"))).toBe(
      "params.assets.0.path is not a file in content/images/",
    );
  });

  it("names the hidden and dotted segments", () => {
    expect(contentPathProblem("content/images/photo.jpg")).toBeUndefined();
    expect(contentPathProblem("content")).toBe("is not under content/");
    expect(contentPathProblem("content//x.md")).toBe("has an empty, . or .. segment");
  });

  describe("on disk", () => {
    const repository = mkdtempSync(join(tmpdir(), "content-paths-"));
    mkdirSync(join(repository, "content", "case-studies"), { recursive: true });
    mkdirSync(join(repository, "scripts"));
    symlinkSync(join(repository, "scripts"), join(repository, "content", "tools"));
    afterAll(() => rmSync(repository, { recursive: true, force: true }));

    it("passes new and existing paths inside content/ and finds one a link takes out of it", async () => {
      expect(
        await pathLeavingContent(repository, ["content/case-studies/new.md", "content/new/folder/x.md"]),
      ).toBeUndefined();
      expect(
        await pathLeavingContent(repository, ["content/case-studies/a.md", "content/tools/start.js"]),
      ).toBe("content/tools/start.js");
    });
  });
});
