/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals --
   Test harness: a proxy for the community-package install test; none of it ships (package.json#files is dist). */
/**
 * A TLS-inspecting HTTPS proxy on 127.0.0.1, as a company network puts in front of npm: CONNECTs
 * to registry.npmjs.org are answered with a certificate of a test authority made here (the client
 * trusts it through npm's `cafile` / NODE_EXTRA_CA_CERTS) and forwarded to a private registry;
 * every other host is refused. n8n 2.41.1 always installs from `--registry=https://registry.npmjs.org`
 * unless licensed for another, so this is how its install route can run offline.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { TLSSocket } from 'node:tls';
import { promisify } from 'node:util';

export const NPM_REGISTRY_HOST = 'registry.npmjs.org';

export interface RegistryProxy {
  readonly url: string;
  /** The certificate (PEM file) the clients must trust. */
  readonly caFile: string;
  /** Hosts it was asked to CONNECT to, in order (refused ones too). */
  readonly connects: string[];
  close(): Promise<void>;
}

/** A self-signed certificate for registry.npmjs.org, valid one day, that is its own authority. */
async function makeCertificate(dir: string): Promise<{ key: string; cert: string }> {
  const key = join(dir, 'proxy-key.pem');
  const cert = join(dir, 'proxy-cert.pem');
  await promisify(execFile)('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    key,
    '-out',
    cert,
    '-days',
    '1',
    '-subj',
    `/CN=${NPM_REGISTRY_HOST}`,
    '-addext',
    `subjectAltName=DNS:${NPM_REGISTRY_HOST}`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
  ]);
  return { key, cert };
}

export async function startRegistryProxy(dir: string, registryUrl: string): Promise<RegistryProxy> {
  const files = await makeCertificate(dir);
  const tls = { key: readFileSync(files.key), cert: readFileSync(files.cert) };
  const target = new URL(registryUrl);
  const forward = createServer((req, res) => {
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        // The registry writes tarball addresses from these: they lead back through this proxy.
        headers: { ...req.headers, host: NPM_REGISTRY_HOST, 'x-forwarded-proto': 'https' },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  const connects: string[] = [];
  const proxy = createServer((_req, res) => res.writeHead(405).end());
  proxy.on('connect', (req, socket: Socket) => {
    connects.push(req.url ?? '');
    if (req.url !== `${NPM_REGISTRY_HOST}:443`) {
      socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    const secure = new TLSSocket(socket, { isServer: true, ...tls });
    secure.on('error', () => socket.destroy());
    forward.emit('connection', secure);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    caFile: files.cert,
    connects,
    close: async () => {
      proxy.closeAllConnections();
      forward.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
    },
  };
}
