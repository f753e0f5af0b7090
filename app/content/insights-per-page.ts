/** Articles on one page of /insights (read by the routes and by the benchmark's list of pages). */
export const INSIGHTS_PER_PAGE = 12;
