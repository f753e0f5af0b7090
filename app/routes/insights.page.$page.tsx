/** /insights/page/<n>: older articles, 12 to a page; /insights/page/1 is /insights, past the last page 404. */
import { type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { InsightsList } from "~/components/insights-list";
import { insightsPageData } from "~/content/insights-page.server";
import type { RootMatch } from "~/root-data";
import { errorMeta } from "~/utils/error-meta";
import { insightsMeta } from "~/utils/insights-meta";

/** The same page for everyone (docs/decisions/011-shared-documents.md), and it needs no script. */
export const handle = { sharedDocument: true, hydrate: false };

export function loader({ params, request }: LoaderFunctionArgs) {
  const text = params.page ?? "";
  if (!/^[1-9]\d{0,5}$/.test(text)) throw new Response("Not Found", { status: 404 });
  if (text === "1") throw redirect(`/insights${new URL(request.url).search}`, 301);
  return insightsPageData(Number(text));
}

export const meta: MetaFunction<typeof loader, RootMatch> = ({ data, matches }) =>
  data
    ? insightsMeta(matches.find((match) => match.id === "root")?.data?.siteUrl ?? "", data.page)
    : errorMeta();

export default function InsightsPageN() {
  return <InsightsList {...useLoaderData<typeof loader>()} />;
}
