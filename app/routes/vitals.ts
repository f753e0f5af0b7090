/** The endpoint the browser posts its field-metrics beacon to. */
import type { ActionFunctionArgs } from "@remix-run/node";
import { handleBeacon, rejectMethod } from "~/vitals/beacon.server";

/** The field-metrics beacon (app/vitals): POST only. */
export function action({ request, context }: ActionFunctionArgs) {
  return handleBeacon(request, context);
}

export function loader() {
  return rejectMethod();
}
