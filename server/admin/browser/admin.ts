/**
 * The script of /admin's page, run after Decap's bundle (bundled into build/admin/admin.js by
 * scripts/media/write-media.ts): the site's stylesheet for Decap's own panes, its words where
 * Decap's read otherwise ("New case study"), each collection's preview rendered by the site
 * (./preview-frame), and the marks of entries visitors do not see (./list-marks).
 */
import { decap } from "./decap";
import { markListEntries } from "./list-marks";
import { previewTemplate } from "./preview-frame";

const meta = (name: string) =>
  [...document.querySelectorAll<HTMLMetaElement>(`meta[name="${name}"]`)].map((element) => element.content);

for (const href of meta("cms-preview-style")) decap.CMS.registerPreviewStyle(href);

// The new-entry button names what it makes, with each collection's `label_singular`: "New case study".
const english = decap.CMS.getLocale("en") as { collection?: { collectionTop?: object } } | undefined;
if (english) {
  decap.CMS.registerLocale("en", {
    ...english,
    collection: {
      ...english.collection,
      collectionTop: { ...english.collection?.collectionTop, newButton: "New %{collectionLabel}" },
    },
  });
}

const [url] = meta("cms-preview-url");
if (url !== undefined) {
  const [token] = meta("cms-preview-token");
  for (const collection of (meta("cms-preview-collections")[0] ?? "").split(" ").filter(Boolean)) {
    decap.CMS.registerPreviewTemplate(collection, previewTemplate(collection, { url, token }));
  }
}

if (document.body) markListEntries();
else document.addEventListener("DOMContentLoaded", markListEntries);
