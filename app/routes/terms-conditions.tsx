/** The terms of service's page. */
import { useLoaderData } from "@remix-run/react";
import { PolicyPage, policyMeta } from "~/components/policy-page";
import { termsOfService } from "~/content/policies/index.server";

// The text reaches the browser only as loader data: the footer's dialog loads it with a fetcher.
export function loader() {
  return { policy: termsOfService };
}

export const meta = policyMeta;

/**
 * Same page for every visitor: rendered once, the same bytes for all (rule in
 * ~/shared-documents/document-cache.server). Nothing on it needs a script, so it sends no
 * bundle (~/hydration/without-bundle).
 */
export const handle = { sharedDocument: true, hydrate: false };

export default function TermsOfServicePage() {
  const { policy } = useLoaderData<typeof loader>();
  return <PolicyPage policy={policy} />;
}
