/**
 * What CI runs for a pull request, decided from the files it changes: a change to content/ alone
 * is checked by `npm run check:content`, anything else by the whole suite (`.ci/run`)
 * (docs/decisions/047-content-changes-checked-alone.md).
 */

/** The folder whose files marketing edits; nothing in it is code. */
export const CONTENT_FOLDER = "content/";

/**
 * "content" when every changed path is under content/, "full" otherwise, with the reason in
 * one line. No changed path at all (or a list that could not be read) is "full": the safe side.
 *
 * @param {readonly string[]} paths the changed files, as `git diff --name-only --no-renames` names them
 * @returns {{ scope: "content" | "full", reason: string }}
 */
export function scopeOf(paths) {
  const changed = paths.filter((path) => path !== "");
  if (changed.length === 0) return { scope: "full", reason: "no changed file found" };
  const outside = changed.find((path) => !path.startsWith(CONTENT_FOLDER));
  if (outside !== undefined) {
    return { scope: "full", reason: `${outside} is outside ${CONTENT_FOLDER}` };
  }
  return {
    scope: "content",
    reason: `${changed.length} changed file${changed.length === 1 ? "" : "s"}, all under ${CONTENT_FOLDER}`,
  };
}
