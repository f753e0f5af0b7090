/** The ways of working in 'How We Deliver Value' (edited in content/delivery.yml). */
import type { deliveryIcons } from "./collections/delivery";
import { deliveryCards as cardEntries } from "./generated/delivery";

export type DeliveryIcon = (typeof deliveryIcons)[number];

export interface DeliveryCard {
  id: string;
  title: string;
  description: string;
  icon: DeliveryIcon;
}

/** The cards, from content/delivery.yml, in its order. */
export const deliveryCards: readonly DeliveryCard[] = cardEntries;
