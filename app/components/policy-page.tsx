/** A policy as a page of its own (title, date, contents list and text), and its meta tags. */
import type { MetaFunction } from "@remix-run/node";
import { PolicyBody, policySectionId } from "~/components/policy-body";
import { pageWords, titleOf } from "~/content/page-words";
import type { Policy } from "~/content/policies/types";
import { HydratedApart } from "~/hydration/hydrated-apart";
import { ogImagePathOf } from "~/media/og-path";
import type { RootMatch } from "~/root-data";
import { buildMeta } from "~/utils/meta";

/** The loader every policy route has: it returns the policy, so a fetcher can load it too. */
type PolicyLoader = () => { policy: Policy };

/** Title, description and canonical link of a policy page, from its loader's data. */
export const policyMeta: MetaFunction<PolicyLoader, RootMatch> = ({ data, matches }) => {
  if (!data) return [{ title: titleOf(pageWords.errors.fallback.title) }];
  const root = matches.find((match) => match.id === "root")?.data;
  return buildMeta({
    title: titleOf(data.policy.title),
    description: data.policy.summary,
    path: data.policy.path,
    siteUrl: root?.siteUrl ?? "",
    image: ogImagePathOf("policies", data.policy.path.slice(1)),
  });
};

const months = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** `2026-11-01` as `1 November 2026`, the same on the server and in every browser. */
export function formatPolicyDate(isoDate: string): string {
  const [year, month, day] = isoDate.split("-").map(Number);
  return `${day} ${months[(month ?? 1) - 1]} ${year}`;
}

/** A policy as a page: title, last-updated date, contents list on wide screens, and the text. */
export function PolicyPage({ policy }: { policy: Policy }) {
  const words = pageWords.policy;
  return (
    <article aria-labelledby="policy-title" className="bg-white">
      <header className="border-primary/10 border-b bg-primary-soft">
        <div className="mx-auto max-w-5xl px-6 pt-14 pb-10 sm:pt-20 sm:pb-12">
          <p className="font-semibold text-primary-dark text-sm uppercase tracking-widest">{words.eyebrow}</p>
          <h1
            id="policy-title"
            className="mt-3 font-extrabold text-4xl text-ink leading-tight tracking-tight sm:text-5xl"
          >
            {policy.title}
          </h1>
          <p className="mt-4 text-muted">
            {words.updated} <time dateTime={policy.updated}>{formatPolicyDate(policy.updated)}</time>
          </p>
        </div>
      </header>
      <div className="mx-auto grid max-w-5xl gap-12 px-6 py-12 sm:py-16 lg:grid-cols-[15rem_minmax(0,1fr)]">
        <nav aria-label={words.contents} className="hidden lg:block">
          <div className="sticky top-24">
            <p className="font-semibold text-ink text-sm uppercase tracking-widest">{words.contents}</p>
            <ol className="mt-4 space-y-2 border-primary/15 border-l text-sm">
              {policy.sections.map((section) => (
                <li key={section.heading}>
                  <a
                    href={`#${policySectionId(section.heading)}`}
                    className="-ml-px block border-transparent border-l-2 py-0.5 pl-4 text-muted hover:border-primary hover:text-ink"
                  >
                    {section.heading}
                  </a>
                </li>
              ))}
            </ol>
          </div>
        </nav>
        <HydratedApart>
          <PolicyBody policy={policy} anchors />
        </HydratedApart>
      </div>
    </article>
  );
}
