/** The privacy notice shown at the enquiry form, in English and Hindi, rendered on the server only. */
import type { SubmissionResult } from "@conform-to/react";
import { useActionData } from "@remix-run/react";
import { Fragment } from "react";
import { privacyFacts } from "~/content/privacy-facts.server";
import { WITHDRAWAL_PATH, withdrawalWordsIn } from "~/content/withdrawal";
import {
  PRIVACY_NOTICE_VERSION,
  type PrivacyNoticeRequest,
  type PrivacyNoticeText,
  privacyNoticeTexts,
} from "~/privacy-notice";
import { PRIVACY_NOTICE_FIELDS, privacyNoticeHashField } from "~/privacy-notice/fields";
import { renderPrivacyNotice } from "~/privacy-notice/rendering.server";
import type { PrivacyNoticeBlocks, PrivacyNoticeFacts, PrivacyNoticeSegment } from "~/privacy-notice/text";

const linkClass =
  "font-medium text-primary-dark underline decoration-primary/40 underline-offset-2 hover:decoration-primary-dark";

/**
 * The privacy notice in the enquiry form, with this server's configuration. It returns an
 * element: ServerRendered calls it as a function, and the hook below belongs to a component.
 */
export function PrivacyNotice() {
  return <PrivacyNoticeAfterAction />;
}

/**
 * The notice with the language its sender chose checked, when the page is rendered again for
 * a refused enquiry sent without JavaScript (the action's values carry it back); English
 * otherwise, and always on the shared document, which no action renders.
 */
function PrivacyNoticeAfterAction() {
  const posted = useActionData<{ result?: SubmissionResult<string[]> | null }>()?.result?.initialValue;
  const language = posted?.[PRIVACY_NOTICE_FIELDS.language];
  return (
    <PrivacyNoticeFor facts={privacyFacts} language={typeof language === "string" ? language : undefined} />
  );
}

/**
 * Every language's privacy notice, one shown at a time: each text follows its radio button and
 * label, and CSS shows the text after the checked one (`.privacy-notice` in app.css), so the
 * switch needs no script and the page stays the same for every visitor. The form posts the
 * checked language and, in hidden fields, the version and the SHA-256 of the text rendered in
 * each language (docs/decisions/028-notice-record-of-the-text-shown.md). `language` is checked
 * when it is one of the notice's, else the first.
 */
export function PrivacyNoticeFor({ facts, language }: { facts: PrivacyNoticeFacts; language?: string }) {
  const rendered = privacyNoticeTexts.map((text) => ({ text, ...renderPrivacyNotice(text, facts) }));
  const checked = rendered.some(({ text }) => text.language === language)
    ? language
    : privacyNoticeTexts[0].language;
  return (
    <div className="privacy-notice rounded-2xl bg-primary-soft px-5 py-4 text-muted text-sm">
      {rendered.map(({ text, blocks }) => {
        const id = `privacy-notice-${text.language}`;
        return (
          <Fragment key={text.language}>
            <input
              type="radio"
              id={id}
              name={PRIVACY_NOTICE_FIELDS.language}
              value={text.language}
              defaultChecked={text.language === checked}
              className="size-4 accent-primary"
            />
            <label htmlFor={id} lang={text.language} className="mr-4 font-semibold text-ink">
              <span className="sr-only">{text.heading}: </span>
              {text.languageName}
            </label>
            <NoticeText text={text} blocks={blocks} contact={facts.contact.email} />
          </Fragment>
        );
      })}
      <input type="hidden" name={PRIVACY_NOTICE_FIELDS.version} value={PRIVACY_NOTICE_VERSION} />
      {rendered.map(({ text, rendering }) => (
        <input
          key={text.language}
          type="hidden"
          name={privacyNoticeHashField(text.language)}
          value={rendering.sha256}
        />
      ))}
    </div>
  );
}

/** One language's text, from the very blocks its hash was taken of. */
function NoticeText({
  text,
  blocks,
  contact,
}: {
  text: PrivacyNoticeText;
  blocks: PrivacyNoticeBlocks;
  contact: string;
}) {
  const render = (segments: PrivacyNoticeSegment[]) =>
    segments.map((segment) => {
      if (typeof segment === "string") return segment;
      if (segment.target === "withdraw") {
        // The withdrawal page in the notice's language, when it has it (~/content/withdrawal).
        const language = withdrawalWordsIn(text.language).language;
        const query = language === withdrawalWordsIn(undefined).language ? "" : `?lang=${language}`;
        return (
          <a key={segment.target} href={`${WITHDRAWAL_PATH}${query}`} className={linkClass}>
            {segment.label}
          </a>
        );
      }
      if (segment.target === "policy") {
        // A plain link in server-rendered markup: with JavaScript, the footer's privacy policy
        // link opens its dialog for it (~/components/policy-dialog-link).
        return (
          <a
            key={segment.target}
            href="/privacy-policy"
            data-policy-dialog="/privacy-policy"
            className={linkClass}
          >
            {segment.label}
          </a>
        );
      }
      return (
        <a key={segment.target} href={mailto(contact, text.requests[segment.target])} className={linkClass}>
          {segment.label}
        </a>
      );
    });
  return (
    <div lang={text.language} className="privacy-notice-text mt-3 gap-2">
      <h3 className="font-bold text-base text-ink">{blocks.heading}</h3>
      <p>{render(blocks.lead)}</p>
      <ul className="grid list-disc gap-1 pl-5 marker:text-primary">
        {blocks.items.map((item) => (
          <li key={item.key}>
            <strong className="font-semibold text-ink">{item.label}:</strong> {render(item.text)}
          </li>
        ))}
      </ul>
      <p>{render(blocks.policy)}</p>
    </div>
  );
}

/** A `mailto:` link with the request already written (RFC 6068: line breaks as CR LF). */
export function mailto(address: string, request: PrivacyNoticeRequest): string {
  const body = request.body.replace(/\n/g, "\r\n");
  return `mailto:${address}?subject=${encodeURIComponent(request.subject)}&body=${encodeURIComponent(body)}`;
}
