/** The agency's logo, its mark and name, as a link to the home page. */
import { site } from "~/content/site";

/** The agency's mark and name, linking home. */
export function BrandLogo({
  className = "",
  tone = "dark",
}: {
  className?: string;
  tone?: "dark" | "light";
}) {
  return (
    <a
      href="/"
      className={`inline-flex items-center gap-2.5 rounded-md font-extrabold text-xl tracking-tight ${tone === "light" ? "text-white" : "text-ink"} ${className}`}
    >
      <svg viewBox="0 0 64 64" width="36" height="36" aria-hidden="true" className="shrink-0">
        <rect width="64" height="64" rx="14" fill="#7255F7" />
        <path d="M18 48V16h7l14 20V16h7v32h-7L25 28v20z" fill="#fff" />
      </svg>
      <span>
        {site.shortName}
        <span className="text-primary"> Digital</span>
      </span>
    </a>
  );
}
