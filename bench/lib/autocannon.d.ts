/** The part of autocannon's API the scripts use (the package ships no types). */
declare module "autocannon" {
  interface Histogram {
    average: number;
    total: number;
    p50: number;
    p99: number;
  }
  interface Result {
    requests: Histogram;
    latency: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    /** Requests in all, instead of a duration. */
    amount?: number;
    requests?: { method?: "GET" | "POST"; path?: string; body?: string; headers?: Record<string, string> }[];
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
