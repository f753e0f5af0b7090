/** The enquiry form: its fields, traps, privacy notice and submit button, working with and without JavaScript. */
import type { SubmissionResult } from "@conform-to/react";
import { Form, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { EnquiryNotice } from "~/components/enquiry-notice";
import { EnquiryReference } from "~/components/enquiry-reference";
import { controlClassName, Field, fieldMeta } from "~/components/field";
import { useHomeContent } from "~/components/home/home-content";
import { ServerRendered } from "~/components/server-rendered";
import type { Notice } from "~/enquiry/notices";
import { HONEYPOT_FIELD, WEBDRIVER_FIELD } from "~/enquiry/trap-fields";
import { MAX_LENGTH } from "~/lead-parts/enquiry";
import { PrivacyNotice } from "~/privacy-notice/notice.server";

const FORM_ID = "enquiry";

interface EnquiryFormProps {
  /** The outcome to announce; each success has a new id, which renders a fresh, empty form. */
  notice: Notice | null;
  lastResult?: SubmissionResult<string[]> | null;
}

/**
 * The enquiry form. It posts to the home route's action with or without JavaScript; the
 * server validates (no schema ships to the browser) and answers with field errors, a
 * failure, or a redirect that clears the form.
 */
export function EnquiryForm({ notice, lastResult }: EnquiryFormProps) {
  return (
    <div className="mt-8">
      <EnquiryNotice notice={notice} />
      <EnquiryFields key={notice?.kind === "sent" ? notice.id : "form"} lastResult={lastResult} />
      {/* Below the Submit button, where the sender's eyes are after an enhanced submit. */}
      <EnquiryReference notice={notice} />
    </div>
  );
}

function EnquiryFields({ lastResult }: Omit<EnquiryFormProps, "notice">) {
  const { labels, optional, submit } = useHomeContent().form;
  const fields = {
    name: fieldMeta(FORM_ID, "name", lastResult),
    email: fieldMeta(FORM_ID, "email", lastResult),
    countryCode: fieldMeta(FORM_ID, "countryCode", lastResult),
    phoneNumber: fieldMeta(FORM_ID, "phoneNumber", lastResult),
    message: fieldMeta(FORM_ID, "message", lastResult),
  };
  const formRef = useRef<HTMLFormElement>(null);
  // After an enhanced submit the server's errors arrive in place: move focus to the first
  // invalid field, so keyboard and screen-reader users land on what needs fixing.
  useEffect(() => {
    if (lastResult?.status !== "error") return;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [lastResult]);
  // An automated browser says so in `navigator.webdriver`; the server's headless rule reads it.
  // Set after hydration only: the server-rendered form stays the same bytes for every visitor.
  const [webdriver, setWebdriver] = useState(false);
  useEffect(() => setWebdriver(navigator.webdriver === true), []);
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formMethod?.toUpperCase() === "POST";

  return (
    <Form
      method="post"
      action="/?index#contact"
      id={FORM_ID}
      ref={formRef}
      noValidate
      aria-label="Enquiry"
      className="grid grid-cols-12 gap-x-4 gap-y-5"
    >
      <div className="hidden" aria-hidden="true">
        <label htmlFor="enquiry-company-website">Leave this field empty</label>
        <input
          id="enquiry-company-website"
          type="text"
          name={HONEYPOT_FIELD}
          defaultValue=""
          tabIndex={-1}
          autoComplete="off"
        />
        {webdriver ? <input type="hidden" name={WEBDRIVER_FIELD} value="1" /> : null}
      </div>

      <Field label={labels.name} meta={fields.name} className="col-span-12 sm:col-span-6">
        {(control) => (
          <input
            {...control}
            type="text"
            autoComplete="name"
            maxLength={MAX_LENGTH.name}
            required
            className={controlClassName}
          />
        )}
      </Field>
      <Field label={labels.email} meta={fields.email} className="col-span-12 sm:col-span-6">
        {(control) => (
          <input
            {...control}
            type="email"
            autoComplete="email"
            maxLength={MAX_LENGTH.email}
            required
            className={controlClassName}
          />
        )}
      </Field>
      <Field
        label={labels.countryCode}
        meta={fields.countryCode}
        className="col-span-5 tiny:col-span-4 sm:col-span-3 lg:col-span-2"
      >
        {(control) => (
          <div className="relative">
            <span
              aria-hidden="true"
              className="pointer-events-none absolute inset-y-0 left-3.5 flex items-center font-semibold text-muted"
            >
              +
            </span>
            <input
              {...control}
              type="text"
              inputMode="numeric"
              autoComplete="tel-country-code"
              maxLength={MAX_LENGTH.countryCode}
              required
              className={`${controlClassName} pl-8`}
            />
          </div>
        )}
      </Field>
      <Field
        label={labels.phoneNumber}
        meta={fields.phoneNumber}
        className="col-span-7 tiny:col-span-8 sm:col-span-9 lg:col-span-4"
      >
        {(control) => (
          <input
            {...control}
            type="tel"
            inputMode="numeric"
            autoComplete="tel-national"
            maxLength={MAX_LENGTH.phoneNumber}
            required
            className={controlClassName}
          />
        )}
      </Field>
      <Field label={labels.message} meta={fields.message} optional={optional} className="col-span-12">
        {(control) => (
          <textarea {...control} rows={4} maxLength={MAX_LENGTH.message} className={controlClassName} />
        )}
      </Field>

      {/* Before Submit: what sending the form consents to (DPDP Act §5). */}
      <ServerRendered id="privacy-notice" render={PrivacyNotice} />

      <div className="col-span-12">
        <button
          type="submit"
          disabled={submitting}
          className="inline-flex min-w-36 items-center justify-center rounded-full bg-primary px-8 py-3 font-semibold text-white transition-colors hover:bg-primary-dark disabled:cursor-progress disabled:opacity-70"
        >
          {submit}
        </button>
      </div>
    </Form>
  );
}
