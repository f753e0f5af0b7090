/** A project's results as figures (value over label), as the work banner and every case study show them. */

export function ResultFigures({ results }: { results: readonly { value: string; label: string }[] }) {
  return (
    <dl className="grid gap-3 sm:grid-cols-3">
      {results.map((result) => (
        <div
          key={result.label}
          className="flex flex-row-reverse items-baseline justify-end gap-3 rounded-2xl bg-primary-soft px-4 py-3 sm:flex-col-reverse sm:items-center sm:justify-start sm:gap-0 sm:p-4 sm:text-center"
        >
          <dt className="text-muted text-sm">{result.label}</dt>
          <dd className="min-w-20 font-extrabold text-primary-dark text-2xl sm:min-w-0">{result.value}</dd>
        </div>
      ))}
    </dl>
  );
}
