import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import tls from "node:tls";

export interface Certificate {
  key: string;
  cert: string;
}

/**
 * A self-signed certificate for 127.0.0.1, valid for a day, made with openssl for one test run: what a
 * test TLS server presents. Nobody trusts it until trustCertificate().
 */
export function throwawayCertificate(): Certificate {
  const dir = mkdtempSync(path.join(tmpdir(), "hostfront-cert-"));
  try {
    const key = path.join(dir, "key.pem");
    const cert = path.join(dir, "cert.pem");
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-keyout",
        key,
        "-out",
        cert,
        "-days",
        "1",
        "-subj",
        "/CN=127.0.0.1",
        "-addext",
        "subjectAltName=IP:127.0.0.1",
      ],
      { stdio: "pipe" },
    );
    return { key: readFileSync(key, "utf8"), cert: readFileSync(cert, "utf8") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Adds the certificate to what this process's TLS clients trust by default (Node's
 * tls.setDefaultCACertificates, as NODE_EXTRA_CA_CERTS does at start), so that code which checks
 * certificates, as production does, accepts it; the returned function puts the defaults back.
 */
export function trustCertificate(certificate: Certificate): () => void {
  const before = tls.getCACertificates("default");
  tls.setDefaultCACertificates([...before, certificate.cert]);
  return () => tls.setDefaultCACertificates(before);
}
