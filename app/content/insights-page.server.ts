/** The loader data and meta of one page of /insights, shared by /insights and /insights/page/<n>. */
import { insightsOnPage, insightsPageCount } from "./pages.server";

/** Page `page` of the list, or a thrown 404 past the last page. */
export function insightsPageData(page: number) {
  const pageCount = insightsPageCount();
  if (!Number.isInteger(page) || page < 1 || page > pageCount)
    throw new Response("Not Found", { status: 404 });
  const insights = insightsOnPage(page).map(
    ({ slug, title, description, author, date, lang, readingMinutes }) => ({
      slug,
      title,
      description,
      author,
      date,
      lang,
      readingMinutes,
    }),
  );
  return { insights, page, pageCount };
}
