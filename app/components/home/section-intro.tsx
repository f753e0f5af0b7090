/** The eyebrow, heading and introduction that open each section of the home page. */
import type { ReactNode } from "react";

/** Eyebrow, heading and lead shared by the home sections. */
export function SectionIntro({
  id,
  eyebrow,
  heading,
  lead,
  level = 2,
  align = "center",
  tone = "light",
}: {
  id: string;
  eyebrow: string;
  heading: string;
  lead?: ReactNode;
  level?: 2 | 3;
  align?: "center" | "start";
  tone?: "light" | "dark";
}) {
  const Heading = level === 2 ? "h2" : "h3";
  const centred = align === "center";
  const dark = tone === "dark";
  return (
    <header className={`grid gap-3 ${centred ? "mx-auto max-w-2xl text-center" : "max-w-2xl"}`}>
      <p
        className={`font-semibold text-sm uppercase tracking-[0.18em] ${dark ? "text-[#c9bfff]" : "text-primary-dark"}`}
      >
        {eyebrow}
      </p>
      <Heading id={id} className="font-extrabold text-3xl tracking-tight sm:text-4xl">
        {heading}
      </Heading>
      {lead ? <p className={`text-lg ${dark ? "text-white/75" : "text-muted"}`}>{lead}</p> : null}
    </header>
  );
}
