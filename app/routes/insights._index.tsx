/** /insights: the newest articles, 12 to a page, with the feed linked. */
import type { MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { InsightsList } from "~/components/insights-list";
import { insightsPageData } from "~/content/insights-page.server";
import type { RootMatch } from "~/root-data";
import { insightsMeta } from "~/utils/insights-meta";

/** The same page for everyone (docs/decisions/011-shared-documents.md), and it needs no script. */
export const handle = { sharedDocument: true, hydrate: false };

export const loader = () => insightsPageData(1);

export const meta: MetaFunction<typeof loader, RootMatch> = ({ matches }) =>
  insightsMeta(matches.find((match) => match.id === "root")?.data?.siteUrl ?? "", 1);

export default function InsightsPage() {
  return <InsightsList {...useLoaderData<typeof loader>()} />;
}
