/** Hands the request's CSP nonce to the components that render inline scripts during server rendering. */
import { createContext, useContext } from "react";

const NonceContext = createContext<string>("");

export const NonceProvider = NonceContext.Provider;

/** The request's CSP nonce during server rendering; empty in the browser, which hides it. */
export function useNonce(): string {
  return useContext(NonceContext);
}
