/** The withdrawal page (/privacy/withdraw): a visitor withdraws their consent with their enquiry's reference. */
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { WithdrawalPage } from "~/components/withdrawal-page";
import { site } from "~/content/site";
import { WITHDRAWAL_PATH, withdrawalWordsIn } from "~/content/withdrawal";
import { ogImagePathOf } from "~/media/og-path";
import type { RootMatch } from "~/root-data";
import { buildMeta } from "~/utils/meta";
import { handleWithdrawal, loadWithdrawal } from "~/withdrawal/action.server";

/**
 * A form post and its redirect (POST/redirect/GET): nothing on the page needs a script, so it
 * sends no bundle (~/hydration/without-bundle) and works alike with JavaScript or without.
 */
export const handle = { hydrate: false };

export const meta: MetaFunction<typeof loader, RootMatch> = ({ data, matches }) => {
  const words = withdrawalWordsIn(data?.language);
  const root = matches.find((match) => match.id === "root")?.data;
  return buildMeta({
    title: `${words.title} — ${site.name}`,
    description: words.summary,
    path: WITHDRAWAL_PATH,
    siteUrl: root?.siteUrl ?? "",
    image: ogImagePathOf("policies", "privacy-policy"),
  });
};

/** A refused try says when to try again, and what it gives back (the visitor's words) is stored by no cache. */
export const headers: HeadersFunction = ({ actionHeaders }) => {
  const headers = new Headers();
  for (const name of ["Retry-After", "Cache-Control"]) {
    const value = actionHeaders.get(name);
    if (value) headers.set(name, value);
  }
  return headers;
};

export function loader({ request }: LoaderFunctionArgs) {
  return loadWithdrawal(request);
}

export async function action({ request, context }: ActionFunctionArgs) {
  return handleWithdrawal(request, context);
}

export default function WithdrawalRoute() {
  const page = useLoaderData<typeof loader>();
  const refused = useActionData<typeof action>();
  const words = withdrawalWordsIn(refused?.language ?? page.language);
  return <WithdrawalPage words={words} page={page} refused={refused} />;
}
