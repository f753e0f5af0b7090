/** The services as a vertical tab list on wide screens, with the tab list's keyboard rules. */
import { type KeyboardEvent, useRef } from "react";
import { ServiceBody } from "~/components/home/service-body";
import type { Service } from "~/content/services";

/** Index reached from `current` by a tab-list key, or `null` for keys the list ignores. */
export function nextTabIndex(key: string, current: number, count: number): number | null {
  switch (key) {
    case "ArrowDown":
    case "ArrowRight":
      return (current + 1) % count;
    case "ArrowUp":
    case "ArrowLeft":
      return (current - 1 + count) % count;
    case "Home":
      return 0;
    case "End":
      return count - 1;
    default:
      return null;
  }
}

/** Wide screens: a vertical WAI-ARIA tab list; selection follows focus (roving tabindex). */
export function ServicesTabs({
  services,
  selected,
  onSelect,
}: {
  services: readonly Service[];
  selected: number;
  onSelect: (index: number) => void;
}) {
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);

  function handleKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const next = nextTabIndex(event.key, selected, services.length);
    if (next === null) return;
    event.preventDefault();
    onSelect(next);
    tabs.current[next]?.focus();
  }

  return (
    <div className="grid items-start gap-8 md:grid-cols-[17rem_minmax(0,1fr)]" data-services-variant="tabs">
      <div
        role="tablist"
        aria-orientation="vertical"
        aria-labelledby="services-heading"
        onKeyDown={handleKeyDown}
        className="grid gap-2"
      >
        {services.map((service, index) => {
          const isSelected = index === selected;
          return (
            <button
              key={service.id}
              ref={(element) => {
                tabs.current[index] = element;
              }}
              type="button"
              role="tab"
              id={`service-tab-${service.id}`}
              aria-selected={isSelected}
              aria-controls={`service-panel-${service.id}`}
              tabIndex={isSelected ? 0 : -1}
              onClick={() => onSelect(index)}
              className={`service-tab ${isSelected ? "service-tab-selected" : ""}`}
            >
              <span aria-hidden="true" className="service-tab-number">
                {String(index + 1).padStart(2, "0")}
              </span>
              {service.label}
            </button>
          );
        })}
      </div>
      {services.map((service, index) => (
        <div
          key={service.id}
          role="tabpanel"
          id={`service-panel-${service.id}`}
          aria-labelledby={`service-tab-${service.id}`}
          hidden={index !== selected}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: the ARIA tabs pattern makes a tab panel focusable when its first content (the heading) is not
          tabIndex={0}
          className="rounded-3xl bg-white p-6 shadow-xl shadow-primary/10 ring-1 ring-primary/10 md:col-start-2 md:row-start-1 lg:p-8"
        >
          <h3 className="mb-5 font-bold text-2xl">{service.label}</h3>
          <ServiceBody service={service} showImage={index === selected} />
        </div>
      ))}
    </div>
  );
}
