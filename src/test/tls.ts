import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/**
 * A test-only certificate authority and a server certificate for `localhost` / 127.0.0.1, made with
 * Debian's openssl for each run (nothing secret is committed). Returns file paths.
 */
export function createTestCertificates(dir: string): { ca: string; key: string; cert: string } {
  fs.mkdirSync(dir, { recursive: true });
  const file = (name: string) => path.join(dir, name);
  const run = (args: string[]) => execFileSync("openssl", args, { stdio: "ignore" });
  run([
    "req",
    "-x509",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:P-256",
    "-nodes",
    "-keyout",
    file("ca.key"),
    "-out",
    file("ca.pem"),
    "-days",
    "2",
    "-subj",
    "/CN=PIS test CA",
  ]);
  run([
    "req",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:P-256",
    "-nodes",
    "-keyout",
    file("server.key"),
    "-out",
    file("server.csr"),
    "-subj",
    "/CN=localhost",
  ]);
  fs.writeFileSync(
    file("ext.cnf"),
    "subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\n",
  );
  run([
    "x509",
    "-req",
    "-in",
    file("server.csr"),
    "-CA",
    file("ca.pem"),
    "-CAkey",
    file("ca.key"),
    "-CAcreateserial",
    "-out",
    file("server.pem"),
    "-days",
    "2",
    "-extfile",
    file("ext.cnf"),
  ]);
  return { ca: file("ca.pem"), key: file("server.key"), cert: file("server.pem") };
}
