/** The line icons of the delivery and value cards, drawn as inline SVG. */
import type { DeliveryIcon } from "~/content/delivery";
import type { ValueIcon } from "~/content/values";

export type LineIconName = DeliveryIcon | ValueIcon;

/** 24 × 24 stroke paths, drawn for this site. */
const paths: Record<LineIconName, string> = {
  squad:
    "M9 11a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7zM2.5 20a6.5 6.5 0 0 1 13 0M16 4.5a3.5 3.5 0 0 1 0 6.5M18.5 14a6 6 0 0 1 3 6",
  supervised: "M12 3l8 3v6c0 4.5-3.4 8-8 9-4.6-1-8-4.5-8-9V6zM8.5 12l2.5 2.5 4.5-5",
  talent: "M10 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM3 21a7 7 0 0 1 10.5-6M17 14v7M13.5 17.5h7",
  marketing: "M3 20h18M5 16l4-5 4 3 6-8M15 6h4v4",
  platforms: "M12 3l9 4.5-9 4.5-9-4.5zM3 12l9 4.5 9-4.5M3 16.5L12 21l9-4.5",
  studio:
    "M12 15c-1.5 0-3-1.5-3-3 0-4 3-8 7.5-9 .5 4.5-1.5 8.5-4.5 12zM9 12l-4 1 2.5-4.5L11 8M12 15l-1 4 4.5-2.5L16 13M6 18c-1 1-1.5 2.5-1.5 2.5S6 20 7 19",
  simple: "M4 12h16M4 6h16M4 18h10",
  reliable: "M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM12 7v5l3 2",
  care: "M12 20s-7.5-4.4-7.5-10A4.5 4.5 0 0 1 12 7.5 4.5 4.5 0 0 1 19.5 10c0 5.6-7.5 10-7.5 10z",
};

export function LineIcon({ name, className = "" }: { name: LineIconName; className?: string }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
      className={className}
    >
      <path d={paths[name]} />
    </svg>
  );
}
