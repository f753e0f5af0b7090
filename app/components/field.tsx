/**
 * A form field and its wiring: label, control, kept value and error text, read from the server's
 * Conform answer.
 */
import type { SubmissionResult } from "@conform-to/react";
import type { ReactNode } from "react";

/** What every control inside a Field receives: its identity, kept value and error wiring. */
export interface ControlProps {
  id: string;
  name: string;
  defaultValue: string | undefined;
  "aria-invalid": true | undefined;
  "aria-describedby": string | undefined;
}

/** One field's share of the server's answer: its kept value and its errors. */
export interface FieldMeta {
  id: string;
  name: string;
  errorId: string;
  initialValue: string | undefined;
  errors: string[] | undefined;
}

/**
 * Reads a field out of the server's Conform `SubmissionResult`. Conform's client runtime
 * (about 11 KB gzipped) is not shipped: the server is authoritative and the form needs only
 * the kept values and the error texts.
 */
export function fieldMeta(
  formId: string,
  name: string,
  result: SubmissionResult<string[]> | null | undefined,
): FieldMeta {
  const id = `${formId}-${name}`;
  const initial = result?.initialValue?.[name];
  return {
    id,
    name,
    errorId: `${id}-error`,
    initialValue: typeof initial === "string" ? initial : undefined,
    errors: result?.error?.[name] ?? undefined,
  };
}

interface FieldProps {
  label: string;
  meta: FieldMeta;
  /** Words after the label of an optional field (fields are required unless they say so). */
  optional?: string;
  className?: string;
  children: (control: ControlProps) => ReactNode;
}

/** A label, one control and its error text, tied together with `aria-invalid` and `aria-describedby`. */
export function Field({ label, meta, optional, className, children }: FieldProps) {
  const error = meta.errors?.[0];
  return (
    <div className={className}>
      <label htmlFor={meta.id} className="mb-1.5 block font-semibold text-ink text-sm">
        {label}
        {optional ? <span className="font-normal text-muted"> {optional}</span> : null}
      </label>
      {children({
        id: meta.id,
        name: meta.name,
        defaultValue: meta.initialValue,
        "aria-invalid": error ? true : undefined,
        "aria-describedby": error ? meta.errorId : undefined,
      })}
      {error ? (
        <p id={meta.errorId} className="mt-1.5 text-red-700 text-sm">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The look every text control of the enquiry form shares; red when `aria-invalid`. */
export const controlClassName =
  "block w-full rounded-lg border border-zinc-300 bg-white px-3.5 py-2.5 text-base text-ink placeholder:text-zinc-500 focus:border-primary focus:outline-none focus-visible:outline-3 focus-visible:outline-primary focus-visible:outline-offset-2 aria-invalid:border-red-600";
