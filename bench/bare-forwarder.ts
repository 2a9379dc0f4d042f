// The floor a validating proxy is measured against (issue 36): a bare Node
// forwarder, no validation, no judging, keep-alive both ways, the answer piped
// back. `node dist/bench/bare-forwarder.js PORT UPSTREAM_URL`.
import http from 'node:http';

const [port, upstream] = [Number(process.argv[2] ?? 4011), new URL(process.argv[3] ?? 'http://127.0.0.1:4000')];
const agent = new http.Agent({ keepAlive: true, maxFreeSockets: 64 });
http
  .createServer((req, res) => {
    const headers = { ...req.headers, host: upstream.host };
    const out = http.request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => res.writeHead(502).end());
    req.pipe(out);
  })
  .listen(port, '127.0.0.1');
