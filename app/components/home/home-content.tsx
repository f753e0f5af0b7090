/** Hands the home page's copy from its route's loader to the sections below it (a React context). */
import { createContext, useContext } from "react";
import type { HomeContent } from "~/content/home.server";

const HomeContentContext = createContext<HomeContent | null>(null);

export const HomeContentProvider = HomeContentContext.Provider;

/** The home page's copy, provided by its route from loader data. */
export function useHomeContent(): HomeContent {
  const content = useContext(HomeContentContext);
  if (!content) throw new Error("useHomeContent is used outside the home page's HomeContentProvider");
  return content;
}
