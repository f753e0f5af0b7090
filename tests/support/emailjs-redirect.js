// Preloaded into a server under test (`--import`, by emailJsEnv in fake-emailjs.ts): the EmailJS
// SDK always connects to port 443 of its host, so TLS connections to FAKE_EMAILJS_ADDRESS's host
// on 443 go to that address's own port, where the fake listens with no privilege. The product
// keeps no test-only code (docs/development.md#the-fake-emailjs).
import { syncBuiltinESMExports } from "node:module";
import tls from "node:tls";

const address = process.env.FAKE_EMAILJS_ADDRESS ?? "";
const separator = address.lastIndexOf(":");
const host = address.slice(0, separator);
const port = Number(address.slice(separator + 1));
if (separator <= 0 || !Number.isInteger(port) || port <= 0) {
  throw new Error(`FAKE_EMAILJS_ADDRESS=${address}: give the fake's host:port`);
}

const connect = tls.connect;
// https.request reaches tls.connect through the module's exports, with the options object first.
tls.connect = function redirectedConnect(...args) {
  const [options] = args;
  if (
    typeof options === "object" &&
    options !== null &&
    options.host === host &&
    Number(options.port) === 443
  ) {
    args[0] = { ...options, port };
  }
  return connect.apply(this, args);
};
syncBuiltinESMExports();
