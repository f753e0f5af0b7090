import type { ActionFunctionArgs } from "@remix-run/node";
import { handleBeacon, rejectMethod } from "~/vitals/beacon.server";

/** The field-metrics beacon (app/vitals): POST only. */
export function action({ request }: ActionFunctionArgs) {
  return handleBeacon(request);
}

export function loader() {
  return rejectMethod();
}
