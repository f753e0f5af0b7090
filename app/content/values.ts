/** 'Our Core Values', phrased for software delivery (docs/decisions/004-content-departures.md); edited in content/values.yml. */
import type { valueIcons } from "./collections/values";
import { coreValues as valueEntries } from "./generated/values";

export type ValueIcon = (typeof valueIcons)[number];

export interface CoreValue {
  id: string;
  title: string;
  summary: string;
  description: string;
  icon: ValueIcon;
}

/** The values, from content/values.yml, in its order. */
export const coreValues: readonly CoreValue[] = valueEntries;
