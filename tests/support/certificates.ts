import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** A certificate authority made for a test: its certificate (to trust) and key (to sign with). */
export interface CertificateAuthority {
  certificatePath: string;
  keyPath: string;
}

/** A server's certificate and key, in PEM. */
export interface ServerCertificate {
  certificate: string;
  key: string;
}

const P256 = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];

function openssl(args: string[]): void {
  execFileSync("openssl", args, { stdio: ["ignore", "ignore", "pipe"] });
}

/** A new certificate authority named `name`, its files in `folder`; made with openssl. */
export function createCertificateAuthority(folder: string, name: string): CertificateAuthority {
  const certificatePath = join(folder, `${name}.pem`);
  const keyPath = join(folder, `${name}.key`);
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
    "-addext",
    "basicConstraints=critical,CA:TRUE",
    "-addext",
    "keyUsage=critical,keyCertSign",
  ]);
  return { certificatePath, keyPath };
}

/** A server certificate for `subjectAltName` (e.g. `IP:127.0.0.1`) signed by `authority`. */
export function signServerCertificate(
  authority: CertificateAuthority,
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
