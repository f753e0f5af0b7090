/**
 * Self-signed certificates and a certificate authority made with openssl, for the HTTPS fakes of
 * tests and benchmarks.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

// Certificates for tests and fakes, made with the openssl command: P-256 keys, valid two days.

const P256 = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];

function openssl(args: string[]): void {
  execFileSync("openssl", args, { stdio: ["ignore", "ignore", "pipe"] });
}

/** A certificate and its key. */
export interface CertificateFiles {
  certificatePath: string;
  keyPath: string;
}

/** A self-signed certificate named `name` with the given `-addext` extensions, in `folder`. */
export function selfSignedCertificate(folder: string, name: string, extensions: string[]): CertificateFiles {
  const certificatePath = join(folder, `${name}.pem`);
  const keyPath = join(folder, `${name}.key`);
  const added = extensions.flatMap((extension) => ["-addext", extension]);
  openssl([
    "req",
    "-x509",
    ...P256,
    "-keyout",
    keyPath,
    "-out",
    certificatePath,
    "-days",
    "2",
    "-subj",
    `/CN=${name}`,
    ...added,
  ]);
  return { certificatePath, keyPath };
}

/** A new certificate authority named `name`: its certificate (to trust) and key (to sign with). */
export function createCertificateAuthority(folder: string, name: string): CertificateFiles {
  return selfSignedCertificate(folder, name, [
    "basicConstraints=critical,CA:TRUE",
    "keyUsage=critical,keyCertSign",
  ]);
}

/** A server's certificate and key, in PEM. */
export interface ServerCertificate {
  certificate: string;
  key: string;
}

/** A server certificate for `subjectAltName` (e.g. `IP:127.0.0.1`) signed by `authority`. */
export function signServerCertificate(
  authority: CertificateFiles,
  folder: string,
  subjectAltName: string,
): ServerCertificate {
  const keyPath = join(folder, "server.key");
  const requestPath = join(folder, "server.csr");
  const certificatePath = join(folder, "server.crt");
  const extensionsPath = join(folder, "server.ext");
  openssl(["req", "-new", ...P256, "-keyout", keyPath, "-out", requestPath, "-subj", "/CN=test server"]);
  writeFileSync(extensionsPath, `subjectAltName=${subjectAltName}\nextendedKeyUsage=serverAuth\n`);
  openssl([
    "x509",
    "-req",
    "-in",
    requestPath,
    "-CA",
    authority.certificatePath,
    "-CAkey",
    authority.keyPath,
    "-CAcreateserial",
    "-days",
    "2",
    "-extfile",
    extensionsPath,
    "-out",
    certificatePath,
  ]);
  return { certificate: readFileSync(certificatePath, "utf8"), key: readFileSync(keyPath, "utf8") };
}
