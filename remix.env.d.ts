/// <reference types="@remix-run/dev" />
/// <reference types="@remix-run/node" />

// Single fetch (future.v3_singleFetch): loader and action data are typed as sent, not as JSON.
declare module "@remix-run/server-runtime" {
  interface Future {
    v3_singleFetch: true;
  }
}

export {};
