// A GET over a bare socket, returning the exact bytes the server wrote: header
// names with their case, their order, and the body, as nothing in fetch keeps.
import net from 'node:net';

export interface RawAnswer {
  /** Every byte of the response. */
  raw: Buffer;
  status: number;
  /** Lower-cased names; the first value of each. */
  headers: Record<string, string>;
  body: string;
  /** The response without its per-request lines (X-Request-Id, Date): what must be identical. */
  stable: string;
}

const PER_REQUEST = /^(x-request-id|date):/i;

export function rawGet(baseUrl: string, target: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  const lines = [
    `GET ${target} HTTP/1.1`,
    `Host: ${hostname}:${port}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    'Connection: close',
  ];
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(Number(port), hostname, () => socket.write(lines.join('\r\n') + '\r\n\r\n'));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const raw = Buffer.concat(chunks);
      const text = raw.toString('latin1');
      const headEnd = text.indexOf('\r\n\r\n');
      const [statusLine = '', ...headerLines] = text.slice(0, headEnd).split('\r\n');
      const parsed: Record<string, string> = {};
      for (const line of headerLines) {
        const colon = line.indexOf(':');
        parsed[line.slice(0, colon).toLowerCase()] ??= line.slice(colon + 1).trim();
      }
      resolve({
        raw,
        status: Number(statusLine.split(' ')[1]),
        headers: parsed,
        body: raw.subarray(Buffer.byteLength(text.slice(0, headEnd + 4), 'latin1')).toString('utf8'),
        stable: [statusLine, ...headerLines.filter((line) => !PER_REQUEST.test(line))].join('\r\n') + '\r\n\r\n' + text.slice(headEnd + 4),
      });
    });
  });
}
